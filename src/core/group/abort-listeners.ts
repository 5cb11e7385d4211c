import { getEventListeners } from 'node:events';

type EventsMap = { has?: (type: string) => boolean } | undefined;

const probeListener = () => undefined;

/**
 * Node keeps an EventTarget's listeners in a map by event type under an own symbol; the map has
 * an 'abort' entry only while some abort listener is (or was, through `onabort`) registered. Found
 * and checked once at load (a listener added shows, removed leaves nothing); undefined when this
 * Node keeps them otherwise.
 */
const EVENTS = findEventsKey();

/** Whether this Node's listener map was found: the quick answer is in use. */
export const readsListenerMap = EVENTS !== undefined;

/**
 * Whether anything listens to `signal`'s abort. getEventListeners answers exactly, but loads its
 * EventTarget helpers again on every call (about a tenth of a hedged call's routing); a signal
 * whose listener map has no 'abort' entry has none, and is answered at once. Any other case asks
 * getEventListeners.
 */
export function hasAbortListener(signal: AbortSignal): boolean {
  if (EVENTS !== undefined) {
    const events = (signal as unknown as Record<symbol, EventsMap>)[EVENTS];
    if (events?.has?.('abort') === false) return false;
  }
  return getEventListeners(signal, 'abort').length > 0;
}

function findEventsKey(): symbol | undefined {
  try {
    const signal = new AbortController().signal;
    const key = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kEvents');
    if (key === undefined) return undefined;
    const events = (signal as unknown as Record<symbol, EventsMap>)[key];
    if (typeof events?.has !== 'function' || events.has('abort')) return undefined;
    signal.addEventListener('abort', probeListener);
    const seen = events.has('abort');
    signal.removeEventListener('abort', probeListener);
    return seen && !events.has('abort') ? key : undefined;
  } catch {
    return undefined;
  }
}
