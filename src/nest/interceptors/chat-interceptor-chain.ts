import { Inject, Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { defer, type Observable } from 'rxjs';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import type { ModelRouterModuleOptions } from '../module/model-router-module-options.js';
import { MODEL_ROUTER_MODULE_OPTIONS } from '../module/tokens.js';
import {
  type ChatCallHandler,
  type ChatInterceptor,
  type ChatInterceptorRegistration,
  isChatInterceptor,
} from './chat-interceptor.js';
import { type ChatCallHooks, hasCallHooks } from './chat-call-hooks.js';
import type { ChatInterceptorContext } from './chat-interceptor-context.js';
import { ChatInterceptorProvider } from './chat-interceptor-provider.decorator.js';
import { EventsChatInterceptor } from './events.chat-interceptor.js';
import { TimingChatInterceptor } from './timing.chat-interceptor.js';

/**
 * The ordered interceptors every RoutingChatService call runs through: the built-in ones
 * (events, timing), then `options.interceptors`, then the classes decorated with
 * `@ChatInterceptorProvider()`, found once at start-up.
 */
@Injectable()
export class ChatInterceptorChain implements OnModuleInit {
  private interceptors: ChatInterceptor[] = [];
  private callHooks: ChatCallHooks[] | undefined;

  constructor(
    @Inject(MODEL_ROUTER_MODULE_OPTIONS) private readonly options: ModelRouterModuleOptions,
    private readonly events: EventsChatInterceptor,
    private readonly timing: TimingChatInterceptor,
    private readonly moduleRef: ModuleRef,
    private readonly discovery: DiscoveryService,
  ) {
    this.setInterceptors([events, timing]);
  }

  async onModuleInit(): Promise<void> {
    const configured = await Promise.all(
      (this.options.interceptors ?? []).map((registration, index) =>
        this.resolve(registration, index),
      ),
    );
    const chain: ChatInterceptor[] = [this.events, this.timing];
    for (const interceptor of [...configured, ...this.discover()]) {
      if (!chain.includes(interceptor)) chain.push(interceptor);
    }
    this.setInterceptors(chain);
  }

  /** The interceptors in the order they wrap a call (outermost first). */
  list(): readonly ChatInterceptor[] {
    return this.interceptors;
  }

  /**
   * The interceptors' hooks, outermost first, when every one of them has hooks (the built-ins
   * do): a `chat()` call can then skip the Observable chain. Undefined when one has none.
   */
  hooks(): readonly ChatCallHooks[] | undefined {
    return this.callHooks;
  }

  /** Runs `last` (the router call) inside every interceptor, outermost first. */
  run(context: ChatInterceptorContext, last: ChatCallHandler): Observable<ChatStreamEvent> {
    const interceptors = this.interceptors;
    const handlerAt = (index: number): ChatCallHandler =>
      index >= interceptors.length
        ? last
        : {
            // defer: an interceptor that throws synchronously fails the call as an Observable
            handle: () => defer(() => interceptors[index].intercept(context, handlerAt(index + 1))),
          };
    return handlerAt(0).handle();
  }

  private setInterceptors(chain: ChatInterceptor[]): void {
    this.interceptors = chain;
    this.callHooks = chain.every(hasCallHooks) ? chain.map((i) => i.hooks) : undefined;
  }

  protected async resolve(
    registration: ChatInterceptorRegistration,
    index: number,
  ): Promise<ChatInterceptor> {
    if (isChatInterceptor(registration)) return registration;
    if (typeof registration === 'function') {
      const type = registration as Type<ChatInterceptor>;
      const instance = this.findProvider(type) ?? (await this.moduleRef.create(type));
      if (isChatInterceptor(instance)) return instance;
    }
    throw new InvalidConfigurationException(
      `interceptors[${index}]: needs an intercept(context, next) method`,
    );
  }

  protected discover(): ChatInterceptor[] {
    const found = this.discovery
      .getProviders({ metadataKey: ChatInterceptorProvider.KEY })
      .map((wrapper, position) => ({
        instance: wrapper.instance as unknown,
        name: wrapper.name,
        order:
          this.discovery.getMetadataByDecorator(ChatInterceptorProvider.decorator, wrapper)
            ?.order ?? 0,
        position,
      }));
    const result: ChatInterceptor[] = [];
    for (const entry of found.toSorted((a, b) => a.order - b.order || a.position - b.position)) {
      if (!isChatInterceptor(entry.instance)) {
        throw new InvalidConfigurationException(
          `@ChatInterceptorProvider() class ${String(entry.name)} needs an intercept(context, next) method (request-scoped interceptors are not supported)`,
        );
      }
      result.push(entry.instance);
    }
    return result;
  }

  private findProvider(type: Type<ChatInterceptor>): ChatInterceptor | undefined {
    try {
      return this.moduleRef.get(type, { strict: false });
    } catch {
      return undefined;
    }
  }
}
