import type { Clock } from '../clock.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import { WindowedHistogram, type OwnRouteStateOptions } from './windowed-histogram.js';

/** Probabilities are counted in this many equal buckets: the quantile's resolution. */
const BUCKETS = 100;
export const DEFAULT_PROBABILITY_WINDOW_MS = 10 * 60_000;

export interface ProbabilityWindowOptions extends OwnRouteStateOptions {
  /** How long a probability counts (the window slides by halves); default 10 min. */
  windowMs?: number;
}

/**
 * A histogram of probabilities over a sliding time window, in the route state store's windowed
 * counters (like TargetShare's), so replicas sharing Redis read every replica's probabilities.
 * Answers where a probability stands among the window's: "is it among the lowest 30 %?".
 */
export class ProbabilityWindow {
  private readonly counts: WindowedHistogram;
  /** Error-diffusion credit of the quantile's own bucket, as in TargetShare. */
  private credit = 0;

  constructor(options: ProbabilityWindowOptions = {}) {
    this.counts = new WindowedHistogram('probabilities', {
      ...options,
      windowMs: options.windowMs ?? DEFAULT_PROBABILITY_WINDOW_MS,
      buckets: BUCKETS,
    });
  }

  /** Takes the module's store and clock, and `scope`, unless built with its own. */
  bind(store: RouteStateStore, scope: string, clock?: Clock): void {
    this.counts.bind(store, scope, clock);
  }

  /** Counts a probability (of a decision) in the window. */
  add(probability: number): void {
    this.counts.count(`p${this.counts.bucketOf(probability)}`, this.counts.now());
  }

  /**
   * Whether `probability` is among the lowest `share` of the window's probabilities; undefined
   * while the window holds fewer than `minSamples`. A probability in the quantile's own bucket
   * is admitted for the part of that bucket the share still reaches (deterministic credit).
   */
  isAmongLowest(probability: number, share: number, minSamples: number): boolean | undefined {
    const { counts, total } = this.counts.histogram('', this.counts.now());
    if (total < minSamples) return undefined;
    const wanted = share * total;
    const mine = this.counts.bucketOf(probability);
    let below = 0;
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      const count = counts[bucket]!;
      if (below + count >= wanted) {
        if (mine !== bucket) return mine < bucket;
        this.credit += count === 0 ? 0 : (wanted - below) / count;
        const admitted = this.credit >= 1;
        if (admitted) this.credit -= 1;
        return admitted;
      }
      below += count;
    }
    return true;
  }
}
