import type { ErrorSummary } from '../observability/routing-event.js';
import type { CircuitDraft } from './circuit-update.js';
import type { CircuitRecord } from '../state/route-state-store.js';
import { cooldownAfter, type CircuitPolicy } from './circuit-policy.js';
import {
  countOutcomes,
  slowCallsSummary,
  windowTrips,
  withOutcome,
  type WindowBatch,
} from './sliding-window.js';

/**
 * The breaker's state machine as pure functions from a record to the next record (or `undefined`:
 * nothing to change). Pure so that the same logic runs over any store: the store only has to
 * swap records atomically.
 *
 *   closed ──failures reach the threshold──▶ open ──cooldown ends──▶ half-open
 *   half-open ──probe succeeds──▶ closed      half-open ──probe fails──▶ open (cooldown × multiplier)
 */

/** How an attempt was admitted: as usual, as a half-open probe, or forced while every circuit was open. */
export type AttemptKind = 'regular' | 'probe' | 'forced';

export function isCoolingDown(record: CircuitRecord, now: number): boolean {
  return (
    record.state === 'open' && record.cooldownUntil !== undefined && record.cooldownUntil > now
  );
}

/** Whether a request could be admitted as a probe now (the cooldown is over and a slot is free). */
export function canProbe(record: CircuitRecord, now: number, policy: CircuitPolicy): boolean {
  if (record.state === 'open') return !isCoolingDown(record, now);
  if (record.state === 'half-open') {
    return record.probes < policy.halfOpenProbes || probeIsStale(record, now, policy);
  }
  return false;
}

/** Takes a probe slot; an expired open circuit becomes half-open in the same step. */
export function claimProbe(
  record: CircuitRecord,
  now: number,
  policy: CircuitPolicy,
): CircuitDraft | undefined {
  if (!canProbe(record, now, policy)) return undefined;
  const restart = record.state === 'open' || record.probes >= policy.halfOpenProbes;
  return {
    ...draftOf(record),
    state: 'half-open',
    probes: restart ? 1 : record.probes + 1,
    probeStartedAt: now,
  };
}

export function releaseProbe(record: CircuitRecord): CircuitDraft | undefined {
  if (record.state !== 'half-open' || record.probes === 0) return undefined;
  return { ...draftOf(record), probes: record.probes - 1 };
}

/** Marks an expired cooldown as over (half-open, no probe yet): how its end is announced once. */
export function endCooldown(record: CircuitRecord, now: number): CircuitDraft | undefined {
  if (record.state !== 'open' || isCoolingDown(record, now)) return undefined;
  const { probeStartedAt: _, ...rest } = draftOf(record);
  return { ...rest, state: 'half-open', probes: 0 };
}

export function afterFailure(
  record: CircuitRecord,
  now: number,
  policy: CircuitPolicy,
  error: ErrorSummary,
  kind: AttemptKind | undefined,
  /** How long the failure asked to wait (a 429's Retry-After): the cooldown lasts at least this. */
  retryAfterMs?: number,
  /** The call took longer than the policy's slow-call threshold before it failed. */
  slow = false,
  /** Successes counted in this process that the record does not hold yet (closed only). */
  pending?: WindowBatch,
): CircuitDraft {
  const counted = {
    failures: record.failures + 1,
    consecutiveFailures: record.consecutiveFailures + 1,
    lastError: { name: error.name, message: error.message, at: now },
  };
  switch (record.state) {
    case 'closed': {
      const window = policy.failureRate
        ? countOutcomes(
            record,
            now,
            policy.failureRate,
            withOutcome(pending, { failed: true, slow }, now),
          )
        : {};
      const trips =
        counted.consecutiveFailures >= policy.failureThreshold ||
        (policy.failureRate !== undefined && windowTrips(window, policy.failureRate));
      if (!trips) return { ...draftOf(record), ...counted, ...window };
      return opened(now, policy, 0, counted, retryAfterMs);
    }
    case 'half-open':
      // a request admitted before the circuit opened says nothing about the model's recovery
      if (kind === 'regular') return { ...draftOf(record), ...counted };
      return opened(now, policy, record.reopenCount + 1, counted, retryAfterMs);
    case 'open': {
      // failing while already open (in flight when it opened, or forced): out for a full cooldown
      // from this failure, as the seed does, without escalating
      const until = now + cooldownAfter(policy, record.reopenCount, retryAfterMs);
      return {
        ...draftOf(record),
        ...counted,
        cooldownUntil: Math.max(record.cooldownUntil ?? until, until),
      };
    }
  }
}

export function afterSuccess(
  record: CircuitRecord,
  now: number,
  policy: CircuitPolicy,
  kind: AttemptKind | undefined,
  /** The call took longer than the policy's slow-call threshold. */
  slow = false,
  /** Successes counted in this process that the record does not hold yet (closed only). */
  pending?: WindowBatch,
): CircuitDraft | undefined {
  switch (record.state) {
    case 'closed':
      if (policy.failureRate) {
        const window = countOutcomes(
          record,
          now,
          policy.failureRate,
          withOutcome(pending, { failed: false, slow }, now),
        );
        // only slow calls open a circuit on a success
        if (slow && windowTrips(window, policy.failureRate)) {
          const summary = slowCallsSummary(window, policy.failureRate);
          return opened(
            now,
            policy,
            0,
            {
              failures: record.failures,
              consecutiveFailures: 0,
              lastError: { ...summary, at: now },
            },
            undefined,
          );
        }
        return { ...draftOf(record), consecutiveFailures: 0, ...window };
      }
      // the common path writes nothing
      return record.consecutiveFailures === 0
        ? undefined
        : { ...draftOf(record), consecutiveFailures: 0 };
    case 'half-open':
      return kind === 'regular' ? undefined : closed(record);
    case 'open':
      return kind === 'forced' ? closed(record) : undefined;
  }
}

/**
 * Writes the successes this process counted into the window of a closed circuit (they never open
 * it: only failures and slow calls do, and those are written as they happen). Nothing to write
 * once the circuit has opened: opening starts a new window.
 */
export function flushSuccesses(
  record: CircuitRecord,
  now: number,
  policy: CircuitPolicy,
  pending: WindowBatch,
): CircuitDraft | undefined {
  if (record.state !== 'closed' || !policy.failureRate || pending.marks.length === 0) {
    return undefined;
  }
  return { ...draftOf(record), ...countOutcomes(record, now, policy.failureRate, pending) };
}

function opened(
  now: number,
  policy: CircuitPolicy,
  reopenCount: number,
  counted: Pick<CircuitRecord, 'failures' | 'consecutiveFailures' | 'lastError'>,
  retryAfterMs: number | undefined,
): CircuitDraft {
  return {
    state: 'open',
    ...counted,
    openedAt: now,
    cooldownUntil: now + cooldownAfter(policy, reopenCount, retryAfterMs),
    reopenCount,
    probes: 0,
  };
}

function closed(record: CircuitRecord): CircuitDraft {
  return {
    state: 'closed',
    failures: 0,
    consecutiveFailures: 0,
    reopenCount: 0,
    probes: 0,
    // kept for health: what went wrong last, even after recovery
    ...(record.lastError ? { lastError: record.lastError } : {}),
  };
}

function probeIsStale(record: CircuitRecord, now: number, policy: CircuitPolicy): boolean {
  return (
    record.probeStartedAt !== undefined && now - record.probeStartedAt >= policy.probeTimeoutMs
  );
}

function draftOf(record: CircuitRecord): CircuitDraft {
  const { version: _, ...draft } = record;
  return draft;
}
