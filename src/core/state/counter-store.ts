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
  /** Keyed by counter and window start: a past window may still be added to (a release). */
  private readonly windows = new Map<string, { end: number; windowMs: number; total: number }>();
  private readonly gauges = new Map<string, { value: number; expiresAt: number }>();
  private nextSweepAt = 1024;

  constructor(private readonly clock: () => number = Date.now) {}

  addToWindow(key: string, delta: number, window: CounterWindow): WindowedAdd {
    const id = `${key}@${windowStart(window)}`;
    let entry = this.windows.get(id);
    if (!entry) {
      entry = { end: windowEnd(window), windowMs: window.windowMs, total: 0 };
      this.windows.set(id, entry);
      if (this.windows.size >= this.nextSweepAt) this.sweep(window.now);
    }
    if (window.limit !== undefined && delta > 0 && entry.total + delta > window.limit) {
      return { ok: false, total: entry.total };
    }
    entry.total += delta;
    return { ok: true, total: entry.total };
  }

  getWindow(key: string, window: CounterWindow): number {
    return this.windows.get(`${key}@${windowStart(window)}`)?.total ?? 0;
  }

  /** Windows over for a whole window length are never read again. */
  private sweep(now: number): void {
    for (const [id, entry] of this.windows) {
      if (entry.end + entry.windowMs < now) this.windows.delete(id);
    }
    this.nextSweepAt = Math.max(1024, this.windows.size * 2);
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
