import { applyDecorators, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

export interface ChatInterceptorProviderOptions {
  /** Lower runs first (outermost) among discovered interceptors; ties keep discovery order. */
  order?: number;
}

const discoverable = DiscoveryService.createDecorator<ChatInterceptorProviderOptions>();

/**
 * Marks an injectable class as a chat interceptor: register it as a provider in any module and
 * ModelRouterModule adds it to every RoutingChatService call, after those in `options.interceptors`.
 */
export function ChatInterceptorProvider(
  options: ChatInterceptorProviderOptions = {},
): ClassDecorator {
  return applyDecorators(Injectable(), discoverable(options));
}

/** The metadata key the module discovers chat interceptors by. */
ChatInterceptorProvider.KEY = discoverable.KEY;
ChatInterceptorProvider.decorator = discoverable;
