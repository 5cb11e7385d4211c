import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { LocalCounters, type CounterWindow, type WindowedAdd } from './counter-store.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import { LocalSketches, type SketchCounts } from './sketch-store.js';
import {
  CLOSED_CIRCUIT,
  type CircuitRecord,
  type RouteStateStore,
  type StickyAssignment,
} from './route-state-store.js';

const MIN_STICKY_SWEEP_SIZE = 1024;

type CircuitListener = (key: string, record: CircuitRecord) => void;

export interface InMemoryRouteStateStoreOptions {
  /**
   * An unchanged circuit is forgotten (back to closed) this long after its last change or the
   * end of its cooldown, whichever is later, as the Redis store's `ttlMs`. Default 1 hour.
   */
  circuitTtlMs?: number;
  /**
   * Most circuits kept; beyond it the least recently changed is forgotten. Clients choose the
   * names of some models (the gateway's `provider/<id>` in failover lists), so without a bound
   * every new name would stay in memory for good. Default 10 000.
   */
  maxCircuits?: number;
}

export const DEFAULT_CIRCUIT_TTL_MS = 60 * 60_000;
export const DEFAULT_MAX_CIRCUITS = 10_000;

interface StoredCircuit {
  record: CircuitRecord;
  expiresAt: number;
}

/** The default store: one process, no sharing. Every operation is synchronous underneath. */
export class InMemoryRouteStateStore implements RouteStateStore {
  /** In order of last change (a change moves its key last), so the first is the stalest. */
  private readonly circuits = new Map<string, StoredCircuit>();
  private readonly circuitTtlMs: number;
  private readonly maxCircuits: number;
  private readonly tokens = new Map<string, number>();
  private readonly sticky = new Map<string, { value: StickyAssignment; expiresAt: number }>();
  private readonly listeners = new Set<CircuitListener>();
  private readonly lists = new Map<string, string[]>();
  private nextStickySweepAt = MIN_STICKY_SWEEP_SIZE;
  private readonly counters: LocalCounters;
  private readonly sketches: LocalSketches;

  constructor(
    /** Read by a strategy that holds the time already (see `getCircuitAt`). */
    readonly clock: Clock = systemClock,
    options: InMemoryRouteStateStoreOptions = {},
  ) {
    this.circuitTtlMs = positive(options.circuitTtlMs, 'circuitTtlMs', DEFAULT_CIRCUIT_TTL_MS);
    this.maxCircuits = positive(options.maxCircuits, 'maxCircuits', DEFAULT_MAX_CIRCUITS);
    this.counters = new LocalCounters(clock);
    this.sketches = new LocalSketches(clock);
  }

  mergeSketch(key: string, add: SketchCounts, generationSize: number): SketchCounts {
    return this.sketches.mergeSketch(key, add, generationSize);
  }

  addToWindow(key: string, delta: number, window: CounterWindow): WindowedAdd {
    return this.counters.addToWindow(key, delta, window);
  }

  getWindow(key: string, window: CounterWindow): number {
    return this.counters.getWindow(key, window);
  }

  setGauge(key: string, value: number, ttlMs: number): void {
    this.counters.setGauge(key, value, ttlMs);
  }

  getGauge(key: string): number | undefined {
    return this.counters.getGauge(key);
  }

  getCircuit(key: string): CircuitRecord {
    const stored = this.circuits.get(key);
    // no record, no clock read: most circuits are never written
    return stored ? this.unexpired(key, stored, this.clock()) : CLOSED_CIRCUIT;
  }

  /** `getCircuit` at `now`, read from this store's clock by the caller (a clock read is ~50 ns). */
  getCircuitAt(key: string, now: number): CircuitRecord {
    const stored = this.circuits.get(key);
    return stored ? this.unexpired(key, stored, now) : CLOSED_CIRCUIT;
  }

  private unexpired(key: string, stored: StoredCircuit, now: number): CircuitRecord {
    if (stored.expiresAt > now) return stored.record;
    this.circuits.delete(key);
    return CLOSED_CIRCUIT;
  }

  /** How many circuits are held (expired ones may still count until they are read or swept). */
  circuitCount(): number {
    return this.circuits.size;
  }

  compareAndSetCircuit(
    key: string,
    expected: CircuitRecord,
    next: Omit<CircuitRecord, 'version'>,
  ): Promise<{ ok: boolean; record: CircuitRecord }> {
    return Promise.resolve(this.compareAndSetNow(key, expected, next));
  }

  /** The synchronous form, for callers that know they hold an in-memory store. */
  compareAndSetNow(
    key: string,
    expected: CircuitRecord,
    next: Omit<CircuitRecord, 'version'>,
  ): { ok: boolean; record: CircuitRecord } {
    const current = this.getCircuit(key);
    if (current.version !== expected.version) return { ok: false, record: current };
    const record = Object.freeze({ ...next, version: current.version + 1 });
    this.keepCircuit(key, record);
    for (const listener of this.listeners) {
      try {
        listener(key, record);
      } catch {
        // a watcher's failure must not undo or hide a committed change
      }
    }
    return { ok: true, record };
  }

  listCircuits(prefix = ''): Map<string, CircuitRecord> {
    const now = this.clock();
    const result = new Map<string, CircuitRecord>();
    for (const [key, { record, expiresAt }] of this.circuits) {
      if (expiresAt > now && key.startsWith(prefix)) result.set(key, record);
    }
    return result;
  }

  private keepCircuit(key: string, record: CircuitRecord): void {
    const now = this.clock();
    const expiresAt = Math.max(now, record.cooldownUntil ?? now) + this.circuitTtlMs;
    this.circuits.delete(key);
    this.circuits.set(key, { record, expiresAt });
    // the one changed longest ago goes: O(1), and mostly one that has expired anyway
    while (this.circuits.size > this.maxCircuits) {
      this.circuits.delete(this.circuits.keys().next().value!);
    }
  }

  addTokens(key: string, delta: number): Promise<number> {
    const total = (this.tokens.get(key) ?? 0) + delta;
    this.tokens.set(key, total);
    return Promise.resolve(total);
  }

  getTokens(key: string): number {
    return this.tokens.get(key) ?? 0;
  }

  getSticky(conversationKey: string): StickyAssignment | undefined {
    const entry = this.sticky.get(conversationKey);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock()) {
      this.sticky.delete(conversationKey);
      return undefined;
    }
    return entry.value;
  }

  setSticky(conversationKey: string, assignment: StickyAssignment, ttlMs: number): Promise<void> {
    const now = this.clock();
    this.sticky.set(conversationKey, { value: assignment, expiresAt: now + ttlMs });
    if (this.sticky.size >= this.nextStickySweepAt) this.sweepSticky(now);
    return Promise.resolve();
  }

  /**
   * Session keys that are never read again would otherwise pile up. Sweeping when the map has
   * doubled since the last sweep keeps the cost amortised O(1) per write.
   */
  private sweepSticky(now: number): void {
    for (const [key, entry] of this.sticky) if (entry.expiresAt <= now) this.sticky.delete(key);
    this.nextStickySweepAt = Math.max(MIN_STICKY_SWEEP_SIZE, this.sticky.size * 2);
  }

  appendToList(key: string, value: string, maxLength: number): Promise<void> {
    const list = this.lists.get(key) ?? [];
    list.push(value);
    if (list.length > maxLength) list.splice(0, list.length - maxLength);
    this.lists.set(key, list);
    return Promise.resolve();
  }

  readList(key: string): Promise<string[]> {
    return Promise.resolve([...(this.lists.get(key) ?? [])]);
  }

  onCircuitChange(listener: CircuitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  isShared(): boolean {
    return false;
  }
}

function positive(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 1) {
    throw new InvalidConfigurationException(
      `InMemoryRouteStateStore option '${field}' must be a number >= 1; got ${String(value)}`,
    );
  }
  return value;
}
