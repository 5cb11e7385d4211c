import type { MaybePromise } from './maybe-async.js';
import type { RouteStateStore } from './route-state-store.js';

/** What an add to a windowed counter did. */
export interface WindowedAdd {
  /** False when `limit` refused the add: the counter is unchanged. */
  readonly ok: boolean;
  /** The window's total after the add (or as found, when refused). */
  readonly total: number;
}

/** A fixed window, aligned to the Unix epoch (so every replica agrees on where windows start). */
export interface CounterWindow {
  readonly windowMs: number;
  /** Epoch ms; the window is the one that contains it. */
  readonly now: number;
  /** Refuse a positive delta that would take the total above this. */
  readonly limit?: number;
}

/**
 * Counters that cost, limit and balancing need beyond circuits and token totals: per-window
 * totals (requests and tokens per minute, spend per budget period) added atomically, and gauges
 * (a decaying latency average) where the last writer wins. Reads are synchronous, from the
 * store's local view, like every other read of a RouteStateStore.
 */
export interface CounterStore {
  /**
   * Adds `delta` to the counter of the window containing `now`, atomically across replicas.
   * With `limit`, a positive delta that would exceed it is refused (rpm/tpm held exactly).
   */
  addToWindow(key: string, delta: number, window: CounterWindow): MaybePromise<WindowedAdd>;
  /** The local view of the current window's total (0 for a window nobody counted in). */
  getWindow(key: string, window: CounterWindow): number;
  setGauge(key: string, value: number, ttlMs: number): void;
  getGauge(key: string): number | undefined;
}

export function windowStart(window: Pick<CounterWindow, 'windowMs' | 'now'>): number {
  return Math.floor(window.now / window.windowMs) * window.windowMs;
}

export function windowEnd(window: Pick<CounterWindow, 'windowMs' | 'now'>): number {
  return windowStart(window) + window.windowMs;
}

/** The in-process counters: the in-memory store's, and the fallback for a store without any. */
export class LocalCounters implements CounterStore {
  private readonly windows = new Map<string, { start: number; total: number }>();
  private readonly gauges = new Map<string, { value: number; expiresAt: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  addToWindow(key: string, delta: number, window: CounterWindow): WindowedAdd {
    const start = windowStart(window);
    let entry = this.windows.get(key);
    if (!entry || entry.start !== start) {
      entry = { start, total: 0 };
      this.windows.set(key, entry);
    }
    if (window.limit !== undefined && delta > 0 && entry.total + delta > window.limit) {
      return { ok: false, total: entry.total };
    }
    entry.total += delta;
    return { ok: true, total: entry.total };
  }

  getWindow(key: string, window: CounterWindow): number {
    const entry = this.windows.get(key);
    return entry && entry.start === windowStart(window) ? entry.total : 0;
  }

  setGauge(key: string, value: number, ttlMs: number): void {
    this.gauges.set(key, { value, expiresAt: this.clock() + ttlMs });
  }

  getGauge(key: string): number | undefined {
    const entry = this.gauges.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock()) {
      this.gauges.delete(key);
      return undefined;
    }
    return entry.value;
  }
}

const fallbacks = new WeakMap<RouteStateStore, CounterStore>();

/**
 * The store's counters, or (for a custom store written before counters existed) counters kept
 * in this process for that store: they work, but are not shared with other replicas.
 */
export function countersOf(store: RouteStateStore): CounterStore {
  const candidate = store as Partial<CounterStore>;
  if (
    typeof candidate.addToWindow === 'function' &&
    typeof candidate.getWindow === 'function' &&
    typeof candidate.setGauge === 'function' &&
    typeof candidate.getGauge === 'function'
  ) {
    return candidate as CounterStore;
  }
  let local = fallbacks.get(store);
  if (!local) {
    local = new LocalCounters();
    fallbacks.set(store, local);
  }
  return local;
}
