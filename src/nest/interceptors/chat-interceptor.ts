import type { Type } from '@nestjs/common';
import type { Observable } from 'rxjs';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatInterceptorContext } from './chat-interceptor-context.js';

/** Calls the rest of the chain (the next interceptor, or the router itself). */
export interface ChatCallHandler {
  handle(): Observable<ChatStreamEvent>;
}

/**
 * Wraps every call made through `RoutingChatService`, with the shape of a Nest interceptor.
 * Both `chat()` and `stream()` calls flow through as a stream of events: a `chat()` call emits
 * exactly one `complete` event, so an interceptor that maps `complete` events works for both.
 * The request in the context may be replaced or mutated before calling `next.handle()`.
 */
export interface ChatInterceptor {
  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent>;
}

/** An interceptor instance, or an injectable class the module resolves (or instantiates). */
export type ChatInterceptorRegistration = ChatInterceptor | Type<ChatInterceptor>;

export function isChatInterceptor(value: unknown): value is ChatInterceptor {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { intercept?: unknown }).intercept === 'function'
  );
}
