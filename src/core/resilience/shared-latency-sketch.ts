import { systemClock, type Clock } from '../clock.js';
import { isPromiseLike } from '../state/maybe-async.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import type { SketchCounts } from '../state/sketch-store.js';
import { BUCKETS, bucketOf, LatencySketch, upperBoundOf } from './latency-sketch.js';

/** How often a shared sketch sends its new samples and takes the group's back. */
export const SKETCH_SYNC_MS = 1_000;
/** A group's sketch not heard from the store for this long is set aside for the local one. */
export const SKETCH_STALE_MS = 30_000;

/** Where a sketch is shared: the store, the sketch's key in it, and the clock. */
export interface SketchBinding {
  store: RouteStateStore;
  key: string;
  clock?: Clock;
}

export interface SharedLatencySketchOptions {
  /** Samples per generation, here and in the store. Default 256. */
  generationSize?: number;
  /**
   * Samples the user needs before it trusts a sketch (a deadline's `minSamples`): the group's
   * sketch is read once it has this many, or at least as many as this replica's own.
   */
  enough?: number;
}

/**
 * A LatencySketch that, once bound to a store with sketches (`share`), also learns from every
 * replica's samples. Nothing waits on the store: `record` counts in memory (the local sketch,
 * and the samples not sent yet), and at most once per SKETCH_SYNC_MS, in the background, the
 * new samples go to the store and the group's merged sketch comes back. Reads use the group's
 * sketch plus this replica's unsent samples; the local sketch when the store does not share
 * (an outage: `mergeSketch` answers undefined or fails), when the group's sketch was not
 * refreshed for SKETCH_STALE_MS, or when the group's holds fewer samples than the local one
 * and not enough (a Redis that restarted empty). Samples recorded during an outage stay unsent
 * and go with the first merge that works; past a generation of them, their counts are halved
 * (so at most a generation goes at once, weighted to the latest).
 */
export class SharedLatencySketch {
  private readonly local: LatencySketch;
  private readonly generationSize: number;
  private readonly enough: number;
  private binding: Required<SketchBinding> | undefined;
  /**
   * Samples the group's sketch does not hold yet, by bucket, and which buckets they touched:
   * those recorded since the last sync, and those sent with a merge still unanswered.
   */
  private readonly unsent = new Float64Array(BUCKETS);
  private touched: number[] = [];
  private unsentCount = 0;
  /** What the merge in flight sends (taken out of `unsent` when it answers). */
  private sending: [number, number][] = [];
  /** The group's sketch as the store last answered (undefined: not shared now). */
  private merged: Float64Array | undefined;
  private mergedCount = 0;
  private mergedAt = 0;
  private lastSyncAt = Number.NEGATIVE_INFINITY;
  private syncing = false;
  /** The last merge was not taken: samples pile up unsent (bounded) until one is. */
  private outage = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Hears when what the sketch answers changed outside `record` (a merge came, or went). */
  onChange: (() => void) | undefined;

  constructor(options: SharedLatencySketchOptions = {}) {
    this.generationSize = Math.max(1, Math.floor(options.generationSize ?? 256));
    this.local = new LatencySketch({ generationSize: this.generationSize });
    this.enough = Math.max(1, options.enough ?? 1);
  }

  /**
   * Shares the sketch through `binding.store` under `binding.key` (a store without sketches
   * leaves it local). Pulls the group's sketch at once, so a new replica starts from what the
   * others learnt. Binding again to the same store and key changes nothing.
   */
  share(binding: SketchBinding): void {
    if (typeof binding.store.mergeSketch !== 'function') return;
    const current = this.binding;
    if (current && current.store === binding.store && current.key === binding.key) return;
    this.binding = { store: binding.store, key: binding.key, clock: binding.clock ?? systemClock };
    this.merged = undefined;
    this.sync();
  }

  /** Adds one duration in ms (negative or non-finite values are ignored). */
  record(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const index = bucketOf(ms);
    this.local.recordBucket(index);
    if (this.binding === undefined) return;
    if (this.unsent[index]++ === 0) this.touched.push(index);
    this.unsentCount += 1;
    if (this.outage && this.unsentCount > this.generationSize) this.halveUnsent();
    // an idle replica still sends its last samples
    this.timer ??= unrefed(setTimeout(() => this.sync(), SKETCH_SYNC_MS));
  }

  /**
   * Called before a read: starts a sync when the last is SKETCH_SYNC_MS old (a replica that only
   * reads learns too), and sets a stale group sketch aside. Free when not shared. `at`, read on
   * `clock`, is the time when the caller has just read the sketch's clock (one reading less).
   */
  poll(at?: number, clock?: Clock): void {
    const binding = this.binding;
    if (binding === undefined) return;
    const now = at !== undefined && clock === binding.clock ? at : binding.clock();
    if (now - this.lastSyncAt >= SKETCH_SYNC_MS) this.sync(now);
    if (this.merged !== undefined && now - this.mergedAt > SKETCH_STALE_MS) this.setAside();
  }

  /** Samples the sketch answers from now. */
  count(): number {
    return this.usesGroup() ? this.mergedCount + this.unsentCount : this.local.count();
  }

  /** As LatencySketch.quantile, over the group's samples when shared. */
  quantile(q: number): number | undefined {
    if (!this.usesGroup()) return this.local.quantile(q);
    const merged = this.merged!;
    const total = this.mergedCount + this.unsentCount;
    if (total === 0) return undefined;
    const rank = Math.max(1, Math.ceil(Math.min(1, Math.max(0, q)) * total));
    let seen = 0;
    for (let index = 0; index < BUCKETS; index += 1) {
      seen += merged[index]! + this.unsent[index]!;
      if (seen >= rank) return upperBoundOf(index);
    }
    return upperBoundOf(BUCKETS - 1);
  }

  /** Whether reads come from the group's sketch (inspection, tests). */
  isShared(): boolean {
    return this.usesGroup();
  }

  private usesGroup(): boolean {
    if (this.merged === undefined) return false;
    const group = this.mergedCount + this.unsentCount;
    return group >= this.enough || group >= this.local.count();
  }

  /** Sends the unsent samples and takes the group's sketch back, in the background. */
  private sync(now = this.binding!.clock()): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.syncing) return;
    const { store, key } = this.binding!;
    this.lastSyncAt = now;
    const add: [number, number][] = this.touched.map((index) => [index, this.unsent[index]!]);
    this.sending = add;
    this.syncing = true;
    let answer: ReturnType<NonNullable<RouteStateStore['mergeSketch']>>;
    try {
      answer = store.mergeSketch!(key, add, this.generationSize);
    } catch {
      answer = undefined;
    }
    if (isPromiseLike(answer)) {
      answer.then(
        (counts) => this.merge(counts),
        () => this.merge(undefined),
      );
    } else {
      this.merge(answer);
    }
  }

  private merge(counts: SketchCounts | undefined): void {
    this.syncing = false;
    const sent = this.sending;
    this.sending = [];
    this.outage = !Array.isArray(counts);
    if (!Array.isArray(counts)) {
      // not taken (an outage): what was sent stays unsent, and goes with the first sync (on the
      // next record or read) that the store takes
      this.setAside();
      return;
    }
    // the answer holds what was sent
    for (const [index, count] of sent) {
      const left = Math.max(0, this.unsent[index]! - count);
      this.unsentCount -= this.unsent[index]! - left;
      this.unsent[index] = left;
    }
    this.touched = this.touched.filter((index) => this.unsent[index]! > 0);
    const merged = this.merged ?? new Float64Array(BUCKETS);
    merged.fill(0);
    let total = 0;
    for (const [bucket, count] of counts) {
      if (!Number.isInteger(bucket) || bucket < 0 || bucket >= BUCKETS) continue;
      if (!(typeof count === 'number' && count > 0 && Number.isFinite(count))) continue;
      merged[bucket] = merged[bucket]! + count;
      total += count;
    }
    this.merged = merged;
    this.mergedCount = total;
    this.mergedAt = this.binding!.clock();
    this.onChange?.();
  }

  /**
   * Halves the unsent counts (rounding a single sample up, so no bucket is lost whole): a long
   * outage leaves a bounded batch, in which the latest samples weigh the most.
   */
  private halveUnsent(): void {
    let count = 0;
    for (const index of this.touched) {
      const halved = Math.ceil(this.unsent[index]! / 2);
      this.unsent[index] = halved;
      count += halved;
    }
    this.unsentCount = count;
  }

  private setAside(): void {
    if (this.merged === undefined) return;
    this.merged = undefined;
    this.mergedCount = 0;
    this.onChange?.();
  }
}

/** A background timer must not keep the process alive. */
function unrefed<T>(handle: T): T {
  (handle as { unref?: () => void }).unref?.();
  return handle;
}
