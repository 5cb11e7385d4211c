import type { Dispatcher } from 'undici';

/** How long the tail of a whole answer may take to arrive before its connection is closed. */
const TAIL_MS = 1_000;
/** At most this much (all of the body, read or not) is read to save the connection. */
const TAIL_LIMIT_BYTES = 8 * 1024 * 1024;

type Body = Dispatcher.ResponseData['body'];

/**
 * An SSE body on a pooled connection. A reader that stops early makes the connection unusable
 * for the next call: unless the reader said the answer was whole (`completed()`), the body is
 * destroyed, which closes the connection (an abandoned or aborted stream lets go at once).
 * After a whole answer, only the tail is left (`[DONE]`, `message_stop`, the last chunk): it is
 * read in the background for up to a second, and the connection goes back to the pool; a server
 * that holds the stream open loses the connection instead.
 */
export class PooledSseBody implements AsyncIterable<Uint8Array> {
  private whole = false;

  constructor(private readonly body: Body) {}

  /** The answer is whole: what follows is only the stream's tail. */
  completed(): void {
    this.whole = true;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const inner = this.body.iterator({ destroyOnReturn: false });
    return {
      next: () => inner.next() as Promise<IteratorResult<Uint8Array>>,
      return: async () => {
        await inner.return?.();
        this.release();
        return { done: true, value: undefined };
      },
    };
  }

  private release(): void {
    if (!this.whole) {
      // nobody reads it any more: its abort error has no one to go to
      this.body.on('error', () => {});
      this.body.destroy();
      return;
    }
    // a timer cleared when the body closes, not AbortSignal.timeout: that one (and the body its
    // listener holds) stays reachable until it fires
    const timer = setTimeout(() => this.body.destroy(), TAIL_MS);
    timer.unref();
    this.body
      .dump({ limit: TAIL_LIMIT_BYTES })
      .catch(() => {
        // the body broke (or the limit cut it): the connection is closed, nothing is lost
      })
      .finally(() => clearTimeout(timer));
  }
}

/** Tells a pooled body that the answer it carries is whole (no-op for other bodies). */
export function markCompleted(body: AsyncIterable<Uint8Array>): void {
  if (body instanceof PooledSseBody) body.completed();
}
