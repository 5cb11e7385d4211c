import { chain, type MaybePromise } from '../state/maybe-async.js';
import type { CircuitRecord, RouteStateStore } from '../state/route-state-store.js';

export type CircuitDraft = Omit<CircuitRecord, 'version'>;

/** A committed change: the record it replaced and the record now stored. */
export interface CircuitChange {
  readonly before: CircuitRecord;
  readonly after: CircuitRecord;
}

/** Enough for a burst of replicas racing on one record; past it the change is dropped. */
const MAX_CONFLICTS = 16;

/**
 * Applies `decide` to a circuit with compare-and-set: on a conflict the decision is taken again
 * on the record that won, so concurrent changes (other requests, other replicas) are never lost
 * and a claim (a half-open probe slot) is granted to exactly one caller. `decide` returns
 * `undefined` to leave the record as it is; then the result is `undefined` too.
 */
export function updateCircuit(
  store: RouteStateStore,
  key: string,
  decide: (current: CircuitRecord) => CircuitDraft | undefined,
  current: CircuitRecord = store.getCircuit(key),
  conflictsLeft = MAX_CONFLICTS,
): MaybePromise<CircuitChange | undefined> {
  const next = decide(current);
  if (next === undefined) return undefined;
  return chain(compareAndSet(store, key, current, next), (result) => {
    if (result.ok) return { before: current, after: result.record };
    if (conflictsLeft <= 0) return undefined;
    return updateCircuit(store, key, decide, result.record, conflictsLeft - 1);
  });
}

type SyncCompareAndSet = (
  key: string,
  expected: CircuitRecord,
  next: CircuitDraft,
) => { ok: boolean; record: CircuitRecord };

/** The store's synchronous form when it has one (the in-memory store), else the async one. */
function compareAndSet(
  store: RouteStateStore,
  key: string,
  expected: CircuitRecord,
  next: CircuitDraft,
): MaybePromise<{ ok: boolean; record: CircuitRecord }> {
  const now = (store as { compareAndSetNow?: SyncCompareAndSet }).compareAndSetNow;
  if (typeof now === 'function') return now.call(store, key, expected, next);
  return store.compareAndSetCircuit(key, expected, next);
}
