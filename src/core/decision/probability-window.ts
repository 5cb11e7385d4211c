import { systemClock, type Clock } from '../clock.js';
import { countersOf, type CounterWindow } from '../state/counter-store.js';
import { InMemoryRouteStateStore } from '../state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import { uniqueScope } from '../state/unique-scope.js';

/** Probabilities are counted in this many equal buckets: the quantile's resolution. */
const BUCKETS = 100;
export const DEFAULT_PROBABILITY_WINDOW_MS = 10 * 60_000;

export interface ProbabilityWindowOptions {
  /** How long a probability counts (the window slides by halves); default 10 min. */
  windowMs?: number;
  store?: RouteStateStore;
  scope?: string;
  clock?: Clock;
}

/**
 * A histogram of probabilities over a sliding time window, in the route state store's windowed
 * counters (like TargetShare's), so replicas sharing Redis read every replica's probabilities.
 * Answers where a probability stands among the window's: "is it among the lowest 30 %?".
 */
export class ProbabilityWindow {
  private readonly half: number;
  private store: RouteStateStore;
  private scope: string;
  private clock: Clock;
  private readonly explicit: { store: boolean; scope: boolean; clock: boolean };
  /** Error-diffusion credit of the quantile's own bucket, as in TargetShare. */
  private credit = 0;

  constructor(options: ProbabilityWindowOptions = {}) {
    const windowMs = options.windowMs ?? DEFAULT_PROBABILITY_WINDOW_MS;
    this.half = Math.max(1, Math.floor(windowMs / 2));
    this.clock = options.clock ?? systemClock;
    this.store = options.store ?? new InMemoryRouteStateStore(this.clock);
    this.scope = options.scope ?? uniqueScope('probabilities');
    this.explicit = {
      store: options.store !== undefined,
      scope: options.scope !== undefined,
      clock: options.clock !== undefined,
    };
  }

  /** Takes the module's store and clock, and `scope`, unless built with its own. */
  bind(store: RouteStateStore, scope: string, clock?: Clock): void {
    if (!this.explicit.store) this.store = store;
    if (!this.explicit.scope) this.scope = scope;
    if (!this.explicit.clock && clock) this.clock = clock;
  }

  /** Counts a probability (of a decision) in the window. */
  add(probability: number): void {
    const now = this.clock();
    try {
      const added = countersOf(this.store).addToWindow(
        `${this.scope}:p${bucketOf(probability)}`,
        1,
        this.window(now),
      );
      if (added instanceof Promise) added.then(undefined, () => undefined);
    } catch {
      // a store that cannot count costs the aim, never the call
    }
  }

  /**
   * Whether `probability` is among the lowest `share` of the window's probabilities; undefined
   * while the window holds fewer than `minSamples`. A probability in the quantile's own bucket
   * is admitted for the part of that bucket the share still reaches (deterministic credit).
   */
  isAmongLowest(probability: number, share: number, minSamples: number): boolean | undefined {
    const now = this.clock();
    const counts: number[] = [];
    let total = 0;
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      const count = this.total(`p${bucket}`, now);
      counts.push(count);
      total += count;
    }
    if (total < minSamples) return undefined;
    const wanted = share * total;
    const mine = bucketOf(probability);
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

  /** The count over the window: this half-window and the one before. */
  private total(what: string, now: number): number {
    const counters = countersOf(this.store);
    const key = `${this.scope}:${what}`;
    return (
      counters.getWindow(key, this.window(now)) +
      counters.getWindow(key, this.window(now - this.half))
    );
  }

  private window(now: number): CounterWindow {
    return { windowMs: this.half, now };
  }
}

function bucketOf(probability: number): number {
  const p = Number.isFinite(probability) ? Math.min(1, Math.max(0, probability)) : 0;
  return Math.min(BUCKETS - 1, Math.floor(p * BUCKETS));
}
