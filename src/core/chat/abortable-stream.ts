import { abortReason } from './abort.js';

/**
 * Iterates `source`, rejecting as soon as `signal` aborts even if the source is stuck waiting
 * for a provider. On early exit the source is closed; an aborted pending `next()` may never
 * settle, so then the source is closed without waiting for it. Without a signal it iterates the
 * same way, so closing behaves the same with or without one.
 *
 * One abort listener per iteration rejects whichever `next()` is awaited, not one added and
 * removed per event (`raceAbort`'s way): a stream layer pays this on every event.
 */
export async function* abortable<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal | undefined,
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let pending = false;
  let finished = false;
  let rejectPending: ((reason: unknown) => void) | undefined;
  const onAbort = () => rejectPending?.(abortReason(signal!));
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      pending = true;
      const pendingNext = iterator.next();
      let next: IteratorResult<T>;
      if (!signal) {
        next = await pendingNext;
      } else if (signal.aborted) {
        // the losing promise may still reject later: observe it so it never becomes unhandled
        pendingNext.catch(() => undefined);
        throw abortReason(signal);
      } else {
        next = await new Promise<IteratorResult<T>>((resolve, reject) => {
          rejectPending = reject;
          pendingNext.then(resolve, reject);
        });
      }
      pending = false;
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
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
