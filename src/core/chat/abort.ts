export { isAbortError } from '../errors/abort-error.js';

/** The reason an aborted signal carries, as an Error (the platform gives a DOMException by default). */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/**
 * Races a promise against a signal: rejects with the abort reason as soon as the signal aborts.
 * The listener is removed when the promise settles, so long-lived signals do not leak.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    // the losing promise may still reject later: observe it so it never becomes unhandled
    promise.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * A model whose `chat` promise rejects with the signal's reason as soon as `options.signal`
 * aborts, whatever its own callee does (BaseChatModel, ModelRouter). A layer above such a model
 * need not race the caller's signal again: one race per call is enough, at the innermost layer
 * that must (each race is one promise and one abort listener added and removed).
 */
export interface SettlesOnAbort {
  readonly settlesOnAbort: true;
}

export function settlesOnAbort(model: unknown): model is SettlesOnAbort {
  return (model as Partial<SettlesOnAbort> | null | undefined)?.settlesOnAbort === true;
}

/**
 * The same of `stream`: each `next()` of its stream rejects with the signal's reason as soon as
 * `options.signal` aborts (ModelRouter). A layer above need not iterate it through `abortable`.
 */
export interface StreamSettlesOnAbort {
  readonly streamSettlesOnAbort: true;
}

export function streamSettlesOnAbort(model: unknown): model is StreamSettlesOnAbort {
  return (model as Partial<StreamSettlesOnAbort> | null | undefined)?.streamSettlesOnAbort === true;
}
