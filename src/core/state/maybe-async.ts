/**
 * A value now or later. The in-memory store answers synchronously, a shared store may not; code
 * written against `MaybePromise` stays synchronous on the in-memory path (no extra ticks on the
 * hot path, and state is visible to the very next call) and still works with an async store.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isPromiseLike<T>(value: MaybePromise<T>): value is Promise<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** `next(value)`, synchronously when `value` is already there. */
export function chain<T, R>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<R>,
): MaybePromise<R> {
  return isPromiseLike(value) ? value.then(next) : next(value);
}

/** Runs `work`, turning a synchronous throw or a rejection into `fallback(error)`. */
export function attempt<T>(
  work: () => MaybePromise<T>,
  fallback: (error: unknown) => T,
): MaybePromise<T> {
  try {
    const result = work();
    return isPromiseLike(result) ? result.then(undefined, fallback) : result;
  } catch (error) {
    return fallback(error);
  }
}

/** `next(value)` after `value`, whichever way each completes; undefined when both were synchronous. */
export function afterwards<T>(
  value: MaybePromise<T>,
  next: (value: T) => void | Promise<void> | undefined,
): MaybePromise<void> {
  const result = chain(value, next);
  return isPromiseLike(result) ? result.then(() => undefined) : undefined;
}
