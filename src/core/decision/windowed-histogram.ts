import { systemClock, type Clock } from '../clock.js';
import { countersOf, type CounterWindow } from '../state/counter-store.js';
import { InMemoryRouteStateStore } from '../state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import { uniqueScope } from '../state/unique-scope.js';

/**
 * A store, scope and clock of its own, kept when the Nest module binds its route state
 * (`bindRouteState`); without them the counts live in the module's store, shared by replicas.
 */
export interface OwnRouteStateOptions {
  store?: RouteStateStore;
  scope?: string;
  clock?: Clock;
}

export interface WindowedHistogramOptions extends OwnRouteStateOptions {
  /** How long a count lasts; the window slides by halves (this half and the one before count). */
  windowMs: number;
  /** Probabilities are counted in this many equal buckets: the histogram's resolution. */
  buckets: number;
}

/**
 * Counts over a sliding time window in the route state store's windowed counters, so replicas
 * sharing Redis read every replica's counts: histograms of probabilities (one count per bucket,
 * under a key prefix) and plain named counts. What TargetShare ranks probabilities against.
 */
export class WindowedHistogram {
  readonly buckets: number;
  private readonly half: number;
  private store: RouteStateStore;
  private scope: string;
  private clock: Clock;
  private readonly explicit: { store: boolean; scope: boolean; clock: boolean };

  /** `kind` names the unique scope taken when no `scope` is given. */
  constructor(kind: string, options: WindowedHistogramOptions) {
    this.buckets = options.buckets;
    this.half = Math.max(1, Math.floor(options.windowMs / 2));
    this.clock = options.clock ?? systemClock;
    this.store = options.store ?? new InMemoryRouteStateStore(this.clock);
    this.scope = options.scope ?? uniqueScope(kind);
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

  now(): number {
    return this.clock();
  }

  /** The bucket a probability falls in (out-of-range and non-finite ones clamped). */
  bucketOf(probability: number): number {
    const p = Number.isFinite(probability) ? Math.min(1, Math.max(0, probability)) : 0;
    return Math.min(this.buckets - 1, Math.floor(p * this.buckets));
  }

  /** Counts one `what` in the current half-window; a store that cannot count loses the count. */
  count(what: string, now: number): void {
    try {
      const added = countersOf(this.store).addToWindow(
        `${this.scope}:${what}`,
        1,
        this.window(now),
      );
      if (added instanceof Promise) added.then(undefined, () => undefined);
    } catch {
      // a store that cannot count costs the estimate, never the call
    }
  }

  /** The count of `what` over the window: this half-window and the one before. */
  total(what: string, now: number): number {
    const counters = countersOf(this.store);
    const key = `${this.scope}:${what}`;
    return (
      counters.getWindow(key, this.window(now)) +
      counters.getWindow(key, this.window(now - this.half))
    );
  }

  /** The window's count in each bucket of the histogram under `prefix`, and their sum. */
  histogram(prefix: string, now: number): { counts: number[]; total: number } {
    const counts: number[] = [];
    let total = 0;
    for (let bucket = 0; bucket < this.buckets; bucket++) {
      const count = this.total(`${prefix}p${bucket}`, now);
      counts.push(count);
      total += count;
    }
    return { counts, total };
  }

  private window(now: number): CounterWindow {
    return { windowMs: this.half, now };
  }
}
