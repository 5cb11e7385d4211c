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
  /** Set by `expectOnlyTail`: how long the next piece may take before the body is let go. */
  private tailMs: number | undefined;
  /** The tail did not come in time: the body was destroyed, and reads as ended. */
  private cut = false;

  constructor(private readonly body: Body) {}

  /** The answer is whole: what follows is only the stream's tail. */
  completed(): void {
    this.whole = true;
  }

  /**
   * The answer is whole but for an optional tail (the usage chunk after the finish reason):
   * from now on, a piece that does not come within `ms` ends the body (its connection closed),
   * so that a server that holds the stream open cannot turn a whole answer into a stall.
   */
  expectOnlyTail(ms: number): void {
    this.tailMs = ms;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const inner = this.body.iterator({ destroyOnReturn: false });
    const ended: IteratorResult<Uint8Array> = { done: true, value: undefined };
    return {
      next: () => {
        if (this.cut) return Promise.resolve(ended);
        const next = inner.next() as Promise<IteratorResult<Uint8Array>>;
        return this.tailMs === undefined ? next : this.withinTail(next, this.tailMs);
      },
      return: async () => {
        // a destroyed body's iterator may still hold the read it never finished: not awaited
        if (!this.cut) await inner.return?.();
        this.release();
        return ended;
      },
    };
  }

  private withinTail(
    next: Promise<IteratorResult<Uint8Array>>,
    ms: number,
  ): Promise<IteratorResult<Uint8Array>> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<IteratorResult<Uint8Array>>((resolve) => {
      timer = setTimeout(() => {
        this.cut = true;
        this.body.on('error', () => {});
        this.body.destroy();
        next.catch(() => {});
        resolve({ done: true, value: undefined });
      }, ms);
    });
    return Promise.race([next, late]).finally(() => clearTimeout(timer));
  }

  private release(): void {
    if (this.cut) return;
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

/** Tells a pooled body that only an optional tail may follow, for `ms` at most (see the method). */
export function expectOnlyTail(body: AsyncIterable<Uint8Array>, ms: number): void {
  if (body instanceof PooledSseBody) body.expectOnlyTail(ms);
}
