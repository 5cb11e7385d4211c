import type { Clock } from '../clock.js';

/**
 * The times of one attempt, kept on its context: when it started (was admitted), produced its
 * first event (a stream) and ended. Each is read once, by the first part that needs it (the
 * strategy admitting the attempt, a concurrency limit, a hedge, the breaker's slow-call rule),
 * and reused by the others: a clock read costs about 50 ns, and an attempt with every tail option
 * was timed six times. Only parts on the same clock share: the first reading fixes the attempt's
 * clock, and a part on another clock (a strategy given its own) reads its own.
 */
export interface AttemptTimes {
  timesClock?: Clock | undefined;
  startedAt?: number | undefined;
  firstTokenAt?: number | undefined;
  endedAt?: number | undefined;
}

/**
 * The attempt was admitted at `now` (read on `clock`): its start, and a new start forgets the
 * times of an earlier use of the same context. Returns false when the attempt's times are on
 * another clock (nothing recorded).
 */
export function noteStart(context: object, clock: Clock, now: number): boolean {
  const times = context as AttemptTimes;
  if (times.timesClock !== undefined && times.timesClock !== clock) return false;
  times.timesClock = clock;
  times.startedAt = now;
  times.firstTokenAt = undefined;
  times.endedAt = undefined;
  return true;
}

/**
 * When the attempt started, on `clock`: the shared reading, else read now (and shared). Asked
 * only as an attempt starts: times that already hold an end belong to an earlier use of the
 * context, and a new start replaces them.
 */
export function startOf(context: object, clock: Clock): number {
  const times = context as AttemptTimes;
  if (times.timesClock === clock && times.startedAt !== undefined && times.endedAt === undefined) {
    return times.startedAt;
  }
  const now = clock();
  noteStart(context, clock, now);
  return now;
}

/** When the attempt produced its first event, on `clock`: read by the first to ask. */
export function firstTokenOf(context: object, clock: Clock): number {
  const times = context as AttemptTimes;
  if (times.timesClock !== clock) return clock();
  return (times.firstTokenAt ??= clock());
}

/** When the attempt ended, on `clock`: read by the first to ask once it has settled. */
export function endOf(context: object, clock: Clock): number {
  const times = context as AttemptTimes;
  if (times.timesClock !== clock) return clock();
  return (times.endedAt ??= clock());
}

/**
 * When a settling attempt ended, for a part that may not have admitted it: the shared reading
 * (a hedge or a concurrency limit may have taken it) if it did, else now.
 */
export function endOfAdmitted(
  context: object | undefined,
  admitted: boolean,
  clock: Clock,
): number {
  return admitted && context ? endOf(context, clock) : clock();
}

/** The start recorded on `clock`, if any (nothing is read). */
export function recordedStart(context: object, clock: Clock): number | undefined {
  const times = context as AttemptTimes;
  return times.timesClock === clock ? times.startedAt : undefined;
}
