import { abortReason } from '../chat/abort.js';

/** The timer functions resilience uses; injectable so tests drive time without waiting. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The global timers, looked up at each call rather than captured, so `jest.useFakeTimers()`
 * installed after a model was built still drives it.
 */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Waits `ms`; rejects with the signal's reason as soon as it aborts, and clears its timer. */
export function sleep(
  ms: number,
  signal?: AbortSignal,
  timers: Timers = systemTimers,
): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      timers.clearTimeout(handle);
      reject(abortReason(signal!));
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
