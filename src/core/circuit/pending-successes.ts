import type { CircuitRecord } from '../state/route-state-store.js';
import type { CircuitPolicy } from './circuit-policy.js';
import { countOutcomes, successes, type WindowBatch } from './sliding-window.js';

/** Most successes a model holds before they are written: bounds memory and a replica's lag. */
export const FLUSH_CALLS = 256;
/** Longest a success waits before it is written. */
export const FLUSH_MS = 250;

/** Runs `work` once after `ms` (the strategy passes an unref'd timer). */
export type Schedule = (work: () => void, ms: number) => void;

/**
 * The successes of each model's failure-rate window that this process counted and has not yet
 * written to the circuit record. A success never opens a circuit (only failures and slow calls
 * do, and those are written as they happen, with what is pending here), so writing every success
 * would cost a compare-and-set per call for nothing; they are written in batches instead: when a
 * model holds `FLUSH_CALLS` of them, `FLUSH_MS` after the first of a batch, and with any other
 * write of the circuit. Counting one is O(1) and allocates nothing.
 */
export class PendingSuccesses {
  private readonly byModel = new Map<string, { times: Float64Array; length: number }>();
  private scheduled = false;

  constructor(
    private readonly policy: CircuitPolicy,
    /** Writes a batch of `model`'s successes into its circuit record. */
    private readonly write: (model: string, batch: WindowBatch) => void,
    private readonly schedule: Schedule,
  ) {}

  /**
   * Holds a success of `model` at `now` when its circuit (`record`) is closed with no failure
   * to reset: then all it changes is the window's counts. False: the caller writes it now.
   */
  hold(model: string, record: CircuitRecord, now: number): boolean {
    if (!this.policy.failureRate) return false;
    if (record.state !== 'closed' || record.consecutiveFailures !== 0) return false;
    if (this.add(model, now)) this.flush(model);
    return true;
  }

  /** `record` as it will be once what this process holds for `model` is written. */
  view(model: string, record: CircuitRecord, now: number): CircuitRecord {
    const pending = this.peek(model);
    const window = this.policy.failureRate;
    if (!pending || !window || record.state !== 'closed') return record;
    return { ...record, ...countOutcomes(record, now, window, pending) };
  }

  /** Counts a success of `model` at `now`; true when its batch is full and must be written now. */
  add(model: string, now: number): boolean {
    let pending = this.byModel.get(model);
    if (!pending) {
      pending = { times: new Float64Array(FLUSH_CALLS), length: 0 };
      this.byModel.set(model, pending);
    }
    if (pending.length < FLUSH_CALLS) pending.times[pending.length++] = now;
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flushAll(), FLUSH_MS);
    }
    return pending.length >= FLUSH_CALLS;
  }

  /** What `model` holds, oldest first, and forgets it (it is being written). */
  take(model: string): WindowBatch | undefined {
    const pending = this.byModel.get(model);
    if (!pending || pending.length === 0) return undefined;
    const times = pending.times.slice(0, pending.length);
    pending.length = 0;
    return successes(times);
  }

  /** What `model` holds, without forgetting it (health views). */
  peek(model: string): WindowBatch | undefined {
    const pending = this.byModel.get(model);
    if (!pending || pending.length === 0) return undefined;
    return successes(pending.times.subarray(0, pending.length));
  }

  /** Writes what `model` holds, if anything. */
  flush(model: string): void {
    const batch = this.take(model);
    if (batch) this.write(model, batch);
  }

  private flushAll(): void {
    this.scheduled = false;
    for (const [model, pending] of this.byModel) if (pending.length > 0) this.flush(model);
  }
}
