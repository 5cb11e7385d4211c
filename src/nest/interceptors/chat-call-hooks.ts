import type { ChatInterceptor } from './chat-interceptor.js';
import type { ChatInterceptorContext } from './chat-interceptor-context.js';

/** How a call ended, as an interceptor's `tap` sees it: complete, error or unsubscribe. */
export type ChatCallEnd =
  { outcome: 'ok' } | { outcome: 'error'; error: unknown } | { outcome: 'cancelled' };

/**
 * What a built-in interceptor does, without Observables: `start` where `intercept` runs (before
 * `next.handle()`), `end` once, where its `tap` would run. When every interceptor of the chain
 * has them, a `chat()` call runs as a plain promise (no Observable per interceptor, no
 * subscription); one interceptor without them and every call takes the Observable chain. Each
 * built-in implements `intercept` with its hooks, so the two paths cannot drift.
 */
export interface ChatCallHooks {
  start?(context: ChatInterceptorContext): void;
  end?(context: ChatInterceptorContext, end: ChatCallEnd): void;
}

export type HookedChatInterceptor = ChatInterceptor & { readonly hooks: ChatCallHooks };

export function hasCallHooks(interceptor: ChatInterceptor): interceptor is HookedChatInterceptor {
  const hooks = (interceptor as Partial<HookedChatInterceptor>).hooks;
  return typeof hooks === 'object' && hooks !== null;
}
