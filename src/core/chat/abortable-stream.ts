import { raceAbort } from './abort.js';

/**
 * Iterates `source`, rejecting as soon as `signal` aborts even if the source is stuck waiting
 * for a provider. On early exit the source is closed; an aborted pending `next()` may never
 * settle, so then the source is closed without waiting for it. Without a signal it iterates the
 * same way, so closing behaves the same with or without one.
 */
export async function* abortable<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal | undefined,
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let pending = false;
  let finished = false;
  try {
    for (;;) {
      pending = true;
      const next = await raceAbort(iterator.next(), signal);
      pending = false;
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!finished) {
      const closing = closeQuietly(iterator);
      if (!pending) await closing;
    }
  }
}

/** Lets the source clean up; the call already has its outcome, so a failing cleanup is ignored. */
function closeQuietly(iterator: AsyncIterator<unknown>): Promise<void> {
  return Promise.resolve()
    .then(() => iterator.return?.())
    .then(
      () => undefined,
      () => undefined,
    );
}
