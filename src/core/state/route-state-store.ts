import type { CircuitState, ErrorSummary } from '../observability/routing-event.js';
import type { CounterStore } from './counter-store.js';
import type { SketchStore } from './sketch-store.js';

/**
 * The state of one model's circuit. Records are replaced whole, never mutated: a store compares
 * `version` to apply a change atomically (compare-and-set), so the breaker's logic lives once,
 * in TypeScript, and a shared store (Redis) only has to swap records atomically.
 */
export interface CircuitRecord {
  readonly state: CircuitState;
  /** Failures counted since the circuit last closed. */
  readonly failures: number;
  readonly consecutiveFailures: number;
  /** Epoch ms when the circuit last opened. */
  readonly openedAt?: number;
  /** Epoch ms when an open circuit lets probes through again. */
  readonly cooldownUntil?: number;
  /** How many times in a row the circuit re-opened (escalates the cooldown). */
  readonly reopenCount: number;
  /** Probe requests in flight while half-open. */
  readonly probes: number;
  /** Epoch ms of the latest probe claim; a claim older than the breaker's probe timeout is stale. */
  readonly probeStartedAt?: number;
  /** Failure-rate window (only kept when a failure-rate threshold is configured): its start… */
  readonly windowStart?: number;
  /** …and the calls and failures counted in it. */
  readonly windowRequests?: number;
  readonly windowFailures?: number;
  /** …the calls slower than the slow-call threshold among them… */
  readonly windowSlow?: number;
  /** …and what they are made of: a time window's buckets `[start, calls, failures, slow]`… */
  readonly windowBuckets?: readonly (readonly [number, number, number, number])[];
  /** …or a count window's last calls, one character each (o ok, f failed, s slow, x both). */
  readonly windowCalls?: string;
  readonly lastError?: ErrorSummary & { at: number };
  /** Increases on every change; 0 for a record never stored. */
  readonly version: number;
}

export const CLOSED_CIRCUIT: CircuitRecord = Object.freeze({
  state: 'closed',
  failures: 0,
  consecutiveFailures: 0,
  reopenCount: 0,
  probes: 0,
  version: 0,
});

/** A conversation pinned to a route and model (tool loops, prompt-cache affinity). */
export interface StickyAssignment {
  route?: string;
  model: string;
}

/**
 * Where route state lives: circuits, token usage, sticky conversations. Keys are opaque strings
 * built by the components (scope + model name). Reads are synchronous on purpose: the hot path
 * reads a local view (a shared store keeps a mirror fresh) and never waits on the network.
 */
export interface RouteStateStore {
  getCircuit(key: string): CircuitRecord;
  /**
   * Replaces the record if its stored version is still `expected.version`. Returns the record now
   * stored: `next` (with a bumped version) on success, the current one on conflict.
   */
  compareAndSetCircuit(
    key: string,
    expected: CircuitRecord,
    next: Omit<CircuitRecord, 'version'>,
  ): Promise<{ ok: boolean; record: CircuitRecord }>;
  /** Every circuit whose key starts with `prefix` (health, inspection). */
  listCircuits(prefix?: string): Map<string, CircuitRecord>;

  /**
   * Adds `delta` (may be negative, to release a reservation) and returns the new total. A shared
   * store should apply the delta to its local view before returning, so that `getTokens` sees it
   * at once: concurrent dispatches balance on each other's reservations.
   */
  addTokens(key: string, delta: number): Promise<number>;
  getTokens(key: string): number;

  getSticky(conversationKey: string): StickyAssignment | undefined;
  setSticky(conversationKey: string, assignment: StickyAssignment, ttlMs: number): Promise<void>;

  /**
   * Windowed counters and gauges (rpm/tpm, spend, in-flight balancing, latency). Both shipped
   * stores implement them; a custom store without them gets per-process counters
   * (`countersOf`).
   */
  addToWindow?: CounterStore['addToWindow'];
  getWindow?: CounterStore['getWindow'];
  setGauge?: CounterStore['setGauge'];
  getGauge?: CounterStore['getGauge'];

  /**
   * Bounded lists of short strings that every replica reads (a decision router's learned
   * examples): appends `value` and keeps the last `maxLength` values. Both shipped stores
   * implement them; without them a router's learned examples stay in its process.
   */
  appendToList?(key: string, value: string, maxLength: number): Promise<void>;
  /** The values of a list, oldest first; an unknown key is an empty list. */
  readList?(key: string): Promise<string[]>;

  /**
   * Latency sketches every replica adds to (learnt deadlines, hedge delays); see SketchStore.
   * Both shipped stores implement them; without them each process learns from its own calls.
   */
  mergeSketch?: SketchStore['mergeSketch'];

  /** Notified when any circuit changes, including changes made by other replicas. */
  onCircuitChange?(listener: (key: string, record: CircuitRecord) => void): () => void;
  /** Whether the store currently shares state (false: serving from local state only). */
  isShared?(): boolean;
  close?(): Promise<void>;
}

/** Injection token of the same name (nestjs/throttler style). */
export const RouteStateStore = Symbol.for('nest-model-router:RouteStateStore');
