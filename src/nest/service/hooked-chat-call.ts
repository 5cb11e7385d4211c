import { abortReason } from '../../core/chat/abort.js';
import type { ChatResponse } from '../../core/chat/response.js';
import type { ChatCallEnd, ChatCallHooks } from '../interceptors/chat-call-hooks.js';
import type { ChatInterceptorContext } from '../interceptors/chat-interceptor-context.js';
import { linkAbort } from '../../core/resilience/linked-abort.js';

const noop = () => {};

/**
 * The abort of one RoutingChatService call. A call its subscriber can leave (an Observable) has a
 * controller of its own, linked to the caller's signal (not AbortSignal.any: it leaks per call
 * under a long-lived caller signal on Node 20/22). A hooked `chat()` ends only by its caller's
 * signal, which is then the call's as it is: one AbortController and abort listener fewer.
 */
export function callAbort(
  caller: AbortSignal | undefined,
  unsubscribable: boolean,
): { controller: AbortController | undefined; signal: AbortSignal; unlink: () => void } {
  if (unsubscribable || caller === undefined) return linkAbort(caller);
  return { controller: undefined, signal: caller, unlink: noop };
}

/**
 * A `chat()` call through interceptor hooks instead of the Observable chain, with the chain's
 * semantics: hooks start outermost first and end innermost first, each once; a hook that throws
 * fails the call (outer hooks still end, inner ones never started); the caller's abort settles
 * the call at once with its reason, even if the model ignores its signal, and ends the hooks as
 * cancelled.
 */
export function runHookedChat(
  hooks: readonly ChatCallHooks[],
  context: ChatInterceptorContext,
  callerSignal: AbortSignal | undefined,
  call: () => Promise<ChatResponse>,
  release: () => void,
): Promise<ChatResponse> {
  return new Promise<ChatResponse>((resolve, reject) => {
    let started = 0;
    let settled = false;
    const settle = (end: ChatCallEnd, done: () => void) => {
      if (settled) return;
      settled = true;
      callerSignal?.removeEventListener('abort', onCallerAbort);
      release();
      let failure: { error: unknown } | undefined;
      let current = end;
      for (let i = started - 1; i >= 0; i--) {
        try {
          hooks[i]!.end?.(context, current);
        } catch (error) {
          // as a throwing `tap` callback would: the outer interceptors see an error
          failure = { error };
          current = { outcome: 'error', error };
        }
      }
      if (failure) reject(failure.error);
      else done();
    };
    const onCallerAbort = () => {
      const reason = abortReason(callerSignal as AbortSignal);
      settle({ outcome: 'cancelled' }, () => reject(reason));
    };
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const fail = (error: unknown) => settle({ outcome: 'error', error }, () => reject(error));
    try {
      for (const hook of hooks) {
        hook.start?.(context);
        started++;
      }
    } catch (error) {
      fail(error);
      return;
    }
    let answer: Promise<ChatResponse>;
    try {
      answer = call();
    } catch (error) {
      fail(error);
      return;
    }
    answer.then((response) => settle({ outcome: 'ok' }, () => resolve(response)), fail);
  });
}
