import { linkAbort } from '../../core/resilience/linked-abort.js';

/** The signal an SDK call runs under: the caller's, plus this model's own `timeout`. */
export interface CallSignal {
  readonly signal: AbortSignal | undefined;
  /** True when the model's own timeout (not the caller) aborted the call. */
  timedOut(): boolean;
  /** Stops the timeout (e.g. once a stream has started); the caller's abort still applies. */
  stopTimer(): void;
  /** Stops the timeout and unlinks from the caller's signal; call when the call is over. */
  release(): void;
}

/**
 * Our own timeout instead of the SDK's: the SDK's stops at the response headers (a body that
 * stalls is never timed out), and in some runtimes its timeout surfaces as a plain connection
 * error. Here a non-streamed call is bounded as a whole and a stream until it starts.
 */
export function callSignal(
  caller: AbortSignal | undefined,
  timeoutMs: number | undefined,
): CallSignal {
  if (timeoutMs === undefined) {
    return { signal: caller, timedOut: () => false, stopTimer: () => {}, release: () => {} };
  }
  const linked = linkAbort(caller);
  let fired = false;
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    fired = true;
    linked.controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const stopTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    signal: linked.signal,
    timedOut: () => fired,
    stopTimer,
    release: () => {
      stopTimer();
      linked.unlink();
    },
  };
}
