/**
 * An AbortController that aborts, with the same reason, when any parent signal aborts, and that
 * can be unlinked once the operation ends. Not `AbortSignal.any`: on Node 20/22 it keeps every
 * combined signal reachable from a long-lived parent (nodejs/node#54614), which a gateway making
 * one per attempt would leak.
 */
export interface LinkedAbort {
  readonly controller: AbortController;
  readonly signal: AbortSignal;
  /** Removes the listeners from the parents; the controller itself stays usable. */
  unlink(): void;
}

export function linkAbort(...parents: (AbortSignal | undefined)[]): LinkedAbort {
  const controller = new AbortController();
  const linked: AbortSignal[] = [];
  const onAbort = (event: Event) => {
    unlink();
    controller.abort((event.target as AbortSignal).reason);
  };
  const unlink = () => {
    for (const parent of linked) parent.removeEventListener('abort', onAbort);
    linked.length = 0;
  };
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      unlink();
      controller.abort(parent.reason);
      break;
    }
    parent.addEventListener('abort', onAbort, { once: true });
    linked.push(parent);
  }
  return { controller, signal: controller.signal, unlink };
}
