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

export function countOutcome(
  record: CircuitRecord,
  now: number,
  policy: WindowPolicy,
  outcome: Outcome,
): WindowFields {
  return policy.type === 'count'
    ? countWindow(record, policy, outcome)
    : timeWindow(record, now, policy, outcome);
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

function countWindow(record: CircuitRecord, policy: WindowPolicy, outcome: Outcome): WindowFields {
  const mark = outcome.failed ? (outcome.slow ? SLOW_FAILED : FAILED) : outcome.slow ? SLOW : OK;
  const before = record.windowCalls ?? '';
  let failures = before === '' ? 0 : (record.windowFailures ?? 0);
  let slow = before === '' ? 0 : (record.windowSlow ?? 0);
  // O(1) per call: add the new call, take out the one that leaves the window
  failures += isFailure(mark);
  slow += isSlow(mark);
  let calls = before + mark;
  if (calls.length > policy.calls) {
    const leaving = calls.charAt(0);
    failures -= isFailure(leaving);
    slow -= isSlow(leaving);
    calls = calls.slice(1);
  }
  return {
    windowCalls: calls,
    windowRequests: calls.length,
    windowFailures: failures,
    windowSlow: slow,
  };
}

const isFailure = (mark: string) => (mark === FAILED || mark === SLOW_FAILED ? 1 : 0);
const isSlow = (mark: string) => (mark === SLOW || mark === SLOW_FAILED ? 1 : 0);

function timeWindow(
  record: CircuitRecord,
  now: number,
  policy: WindowPolicy,
  outcome: Outcome,
): WindowFields {
  const width = Math.max(1, Math.ceil(policy.durationMs / BUCKETS));
  const current = Math.floor(now / width) * width;
  const oldest = current - (BUCKETS - 1) * width;
  // [bucket start, calls, failures, slow calls]
  const buckets = (record.windowBuckets ?? []).filter(([start]) => start >= oldest && start <= now);
  let last = buckets.at(-1);
  if (!last || last[0] !== current) {
    last = [current, 0, 0, 0];
    buckets.push(last);
  }
  buckets[buckets.length - 1] = [
    current,
    last[1] + 1,
    last[2] + (outcome.failed ? 1 : 0),
    last[3] + (outcome.slow ? 1 : 0),
  ];
  let calls = 0;
  let failures = 0;
  let slow = 0;
  for (const [, c, f, s] of buckets) {
    calls += c;
    failures += f;
    slow += s;
  }
  return {
    windowStart: buckets[0]![0],
    windowBuckets: buckets,
    windowRequests: calls,
    windowFailures: failures,
    windowSlow: slow,
  };
}
