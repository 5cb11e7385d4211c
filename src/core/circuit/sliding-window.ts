import type { CircuitRecord } from '../state/route-state-store.js';

/**
 * The failure-rate breaker's window, resilience4j's two kinds: the last `calls` calls (count),
 * or the last `durationMs` (time, in 10 buckets that slide: a failure leaves the window
 * `durationMs` after it happened, ± a tenth, not all at once at a window's end). It lives in the
 * circuit record, so a shared store shares it with the rest of the circuit, under the same
 * compare-and-set.
 */
export interface WindowPolicy {
  /** Opens when failures / calls reaches this share; undefined: failures alone never open it. */
  readonly threshold?: number;
  /** Opens when slow calls / calls reaches this share. */
  readonly slowRateThreshold?: number;
  /** A call slower than this is slow (a stream: its time to first token). */
  readonly slowCallMs: number;
  readonly type: 'time' | 'count';
  /** Time window: its length. */
  readonly durationMs: number;
  /** Count window: how many calls it holds. */
  readonly calls: number;
  /** Nothing opens before the window holds this many calls. */
  readonly minimumRequests: number;
}

/** One call's outcome, as the window counts it. */
export interface Outcome {
  readonly failed: boolean;
  readonly slow: boolean;
}

/** Record fields of the window: the counts (read by health) and what they are made of. */
export type WindowFields = Pick<
  CircuitRecord,
  | 'windowStart'
  | 'windowRequests'
  | 'windowFailures'
  | 'windowSlow'
  | 'windowBuckets'
  | 'windowCalls'
>;

const BUCKETS = 10;
/** Count window encoding, one character per call: ok, failed, slow ok, slow failed. */
const OK = 'o';
const FAILED = 'f';
const SLOW = 's';
const SLOW_FAILED = 'x';

/**
 * Outcomes to add to a window, oldest first: the successes this process counted and has not yet
 * written to the circuit record (see PendingSuccesses), then the call being settled.
 */
export interface WindowBatch {
  /** One mark per outcome (the count window's encoding). */
  readonly marks: string;
  /** When each happened, epoch ms (a time window puts each in its bucket). */
  readonly times: ArrayLike<number>;
}

/** `outcome` at `now`, after the outcomes of `pending`. */
export function withOutcome(
  pending: WindowBatch | undefined,
  outcome: Outcome,
  now: number,
): WindowBatch {
  const mark = outcome.failed ? (outcome.slow ? SLOW_FAILED : FAILED) : outcome.slow ? SLOW : OK;
  if (!pending || pending.marks.length === 0) return { marks: mark, times: [now] };
  return { marks: pending.marks + mark, times: [...Array.from(pending.times), now] };
}

/** `count` ok outcomes at `times` (what PendingSuccesses holds). */
export function successes(times: ArrayLike<number>): WindowBatch {
  return { marks: OK.repeat(times.length), times };
}

/** The window with `batch` added. O(window) per batch, however many calls it holds. */
export function countOutcomes(
  record: CircuitRecord,
  now: number,
  policy: WindowPolicy,
  batch: WindowBatch,
): WindowFields {
  return policy.type === 'count'
    ? countWindow(record, policy, batch)
    : timeWindow(record, now, policy, batch);
}

/** Whether the counts just taken open the circuit. */
export function windowTrips(fields: WindowFields, policy: WindowPolicy): boolean {
  const calls = fields.windowRequests ?? 0;
  if (calls === 0 || calls < policy.minimumRequests) return false;
  const failing =
    policy.threshold !== undefined && (fields.windowFailures ?? 0) / calls >= policy.threshold;
  const slow =
    policy.slowRateThreshold !== undefined &&
    (fields.windowSlow ?? 0) / calls >= policy.slowRateThreshold;
  return failing || slow;
}

/** Why the window opened the circuit, for `lastError` when no failure did (slow calls). */
export function slowCallsSummary(fields: WindowFields, policy: WindowPolicy) {
  const share = Math.round(((fields.windowSlow ?? 0) / (fields.windowRequests ?? 1)) * 100);
  return {
    name: 'SlowCalls',
    message: `${share} % of the last ${fields.windowRequests} calls took over ${policy.slowCallMs} ms`,
  };
}

function countWindow(
  record: CircuitRecord,
  policy: WindowPolicy,
  batch: WindowBatch,
): WindowFields {
  let calls = (record.windowCalls ?? '') + batch.marks;
  if (calls.length > policy.calls) calls = calls.slice(calls.length - policy.calls);
  let failures = 0;
  let slow = 0;
  for (let index = 0; index < calls.length; index += 1) {
    const mark = calls[index];
    if (mark === FAILED || mark === SLOW_FAILED) failures += 1;
    if (mark === SLOW || mark === SLOW_FAILED) slow += 1;
  }
  return {
    windowCalls: calls,
    windowRequests: calls.length,
    windowFailures: failures,
    windowSlow: slow,
  };
}

function timeWindow(
  record: CircuitRecord,
  now: number,
  policy: WindowPolicy,
  batch: WindowBatch,
): WindowFields {
  const width = Math.max(1, Math.ceil(policy.durationMs / BUCKETS));
  const oldest = Math.floor(now / width) * width - (BUCKETS - 1) * width;
  // [bucket start, calls, failures, slow calls]
  const buckets = (record.windowBuckets ?? [])
    .filter(([start]) => start >= oldest && start <= now)
    .map(([start, c, f, s]) => [start, c, f, s] as [number, number, number, number]);
  for (let index = 0; index < batch.marks.length; index += 1) {
    const at = batch.times[index]!;
    const start = Math.floor(at / width) * width;
    // an outcome that aged out of the window before it was written counts no more
    if (start < oldest || start > now) continue;
    let bucket = buckets.find((candidate) => candidate[0] === start);
    if (!bucket) {
      bucket = [start, 0, 0, 0];
      buckets.push(bucket);
    }
    const mark = batch.marks[index];
    bucket[1] += 1;
    if (mark === FAILED || mark === SLOW_FAILED) bucket[2] += 1;
    if (mark === SLOW || mark === SLOW_FAILED) bucket[3] += 1;
  }
  buckets.sort((a, b) => a[0] - b[0]);
  let calls = 0;
  let failures = 0;
  let slow = 0;
  for (const [, c, f, s] of buckets) {
    calls += c;
    failures += f;
    slow += s;
  }
  return {
    windowStart: buckets[0]?.[0] ?? oldest,
    windowBuckets: buckets,
    windowRequests: calls,
    windowFailures: failures,
    windowSlow: slow,
  };
}
