import { Observable } from 'rxjs';

/**
 * An Observable over an async iterable. Unsubscribing closes the iterator; the caller's
 * AbortSignal (aborted on unsubscribe by RoutingChatService) stops a pending read.
 */
export function observableFromStream<T>(open: () => AsyncIterable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    let iterator: AsyncIterator<T> | undefined;
    let closed = false;
    void (async () => {
      try {
        iterator = open()[Symbol.asyncIterator]();
        for (;;) {
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
