import { Observable } from 'rxjs';

/**
 * A stream consumer's readiness for more events, so that a consumer that cannot keep up (an HTTP
 * client that does not read) stops the stream from reading its model, instead of the events
 * piling up in memory.
 */
export interface StreamFlow {
  /** Undefined when ready for the next event; else a promise that settles when it is. */
  ready(): Promise<void> | undefined;
}

/**
 * An Observable over an async iterable. Unsubscribing closes the iterator; the caller's
 * AbortSignal (aborted on unsubscribe by RoutingChatService) stops a pending read. With `flow`,
 * the next event is read only once the consumer is ready for it.
 */
export function observableFromStream<T>(
  open: () => AsyncIterable<T>,
  flow?: StreamFlow,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    let iterator: AsyncIterator<T> | undefined;
    let closed = false;
    void (async () => {
      try {
        iterator = open()[Symbol.asyncIterator]();
        for (;;) {
          const waiting = flow?.ready();
          if (waiting) {
            await waiting;
            if (closed) return;
          }
          const next = await iterator.next();
          if (closed) return;
          if (next.done) {
            subscriber.complete();
            return;
          }
          subscriber.next(next.value);
        }
      } catch (error) {
        if (!closed) subscriber.error(error);
      }
    })();
    return () => {
      closed = true;
      // the generator's finally blocks run once its pending read settles (the abort rejects it)
      iterator?.return?.().catch(() => undefined);
    };
  });
}
