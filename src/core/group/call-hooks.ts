import { raceAbort } from '../chat/abort.js';
import { isPromiseLike, type MaybePromise } from '../state/maybe-async.js';

const DONE: Promise<void> = Promise.resolve();
const ignore = () => undefined;

/*
 * A group's call awaits its strategy (the pick, then the verdict hooks) between the models'
 * answers. The caller's abort ends the call at once there too (a RoutingChatModel above relies on
 * it and races no further), yet an in-memory strategy answers synchronously: only a pending
 * answer is raced, so the usual call adds no abort listener for it.
 */

/** A strategy's answer, waited for only until `signal` aborts. */
export function untilAborted<T>(
  value: MaybePromise<T>,
  signal: AbortSignal | undefined,
): MaybePromise<T> {
  return isPromiseLike(value) ? raceAbort(value, signal) : value;
}

/**
 * Strategy hooks and listeners observe the call; their failures never change its outcome. A hook
 * still pending is waited for only until `signal` aborts (the call then ends with its reason).
 */
export function quietly(work: () => unknown, signal?: AbortSignal): Promise<void> {
  let result: unknown;
  try {
    result = work();
  } catch {
    return DONE;
  }
  if (!isPromiseLike(result)) return DONE;
  return raceAbort(Promise.resolve(result).then(ignore, ignore), signal);
}
