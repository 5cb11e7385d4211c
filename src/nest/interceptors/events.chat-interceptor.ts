import { Injectable } from '@nestjs/common';
import type { Observable } from 'rxjs';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import { ModelRouterEventPublisher } from '../events/model-router-event-publisher.js';
import type { ChatCallHooks } from './chat-call-hooks.js';
import type { ChatCallHandler, ChatInterceptor } from './chat-interceptor.js';
import type { ChatInterceptorContext } from './chat-interceptor-context.js';

/** Built-in, first in the chain: turns the call's routing events into Nest events. */
@Injectable()
export class EventsChatInterceptor implements ChatInterceptor {
  readonly hooks: ChatCallHooks = {
    start: (context) => {
      const source = context.routerName ?? context.target;
      if (source !== undefined && this.publisher.enabled) {
        context.observe((event) => this.publisher.publish(event, source));
      }
    },
  };

  constructor(private readonly publisher: ModelRouterEventPublisher) {}

  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    this.hooks.start!(context);
    return next.handle();
  }
}
