import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ModelRoutingInterceptor } from './model-routing.interceptor.js';
import { USE_ROUTER_METADATA } from './use-router.metadata.js';

/**
 * Sends the RoutingChatService calls made while handling this route (method) or controller
 * (class) to the named router. The method's choice wins over the class's. Also applies
 * ModelRoutingInterceptor, which reads the choice and sets the x-model-router-* headers.
 */
export function UseRouter(name: string): ClassDecorator & MethodDecorator {
  return applyDecorators(
    SetMetadata(USE_ROUTER_METADATA, name),
    UseInterceptors(ModelRoutingInterceptor),
  );
}
