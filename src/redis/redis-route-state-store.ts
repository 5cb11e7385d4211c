import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import type {
  CircuitRecord,
  RouteStateStore,
  StickyAssignment,
} from '../core/state/route-state-store.js';
import type { CounterStore, CounterWindow, WindowedAdd } from '../core/state/counter-store.js';
import { CircuitMirror } from './circuit-mirror.js';
import { withVersion } from './circuit-codec.js';
import {
  compareAndSetShared,
  type SharedWriteLink,
  writeStickyShared,
} from './redis-shared-writes.js';
import type {
  RedisRouteStateStoreDescription,
  RouteStateSharing,
  StatusListener,
} from './redis-store-status.js';
import { RedisKeySpace } from './redis-key-space.js';
import {
  resolveRedisStoreOptions,
  type RedisRouteStateStoreOptions,
  type ResolvedRedisStoreOptions,
} from './redis-route-state-store-options.js';
import { RedisRouteStateStoreException } from './redis-route-state-store-exception.js';
import { RedisSharing } from './redis-sharing.js';
import { decodeSticky, encodeSticky } from './sticky-codec.js';
import { StickyMirror } from './sticky-mirror.js';
import { TokenCounters } from './token-counters.js';
import { TokenIncrementBatch } from './token-increment-batch.js';
import { sendTokenIncrement } from './token-writes.js';
import { RedisCounters } from './redis-counters.js';
import { SharedLists } from './shared-lists.js';
import { SharedSketches } from './shared-sketches.js';
import type { SketchCounts } from '../core/state/sketch-store.js';

/**
 * A `RouteStateStore` shared by every replica through Redis (ioredis).
 *
 * Reads never touch the network: they come from a local mirror that pub/sub keeps within
 * milliseconds of Redis. Writes are atomic in Redis (a Lua compare-and-set per circuit change,
 * HINCRBYFLOAT for token counters, coalesced per event-loop turn, SET PX for sticky assignments)
 * and update the mirror at once.
 * When Redis is away the store keeps answering from the mirror, reports `isShared() === false`,
 * emits a status event, and resyncs when Redis returns (see `RouteStateSync` for the policy).
 */
export class RedisRouteStateStore implements RouteStateStore {
  /** Creates the store and waits for the first sync (see `connect()`). */
  static async connect(options: RedisRouteStateStoreOptions): Promise<RedisRouteStateStore> {
    const store = new RedisRouteStateStore(options);
    await store.connect();
    return store;
  }

  protected readonly options: ResolvedRedisStoreOptions;
  protected readonly keys: RedisKeySpace;
  protected readonly circuits: CircuitMirror;
  protected readonly stickies: StickyMirror;
  protected readonly tokens = new TokenCounters();
  /**
   * Windowed counters (rpm/tpm, spend) and gauges (latency): see RedisCounters. Typed by what
   * the store uses of them, so that the typings a consumer compiles never name ioredis.
   */
  protected readonly counters: CounterStore & { refresh(): Promise<void>; flushLocal(): void };
  /** The same counters, as the sharing's resync writes them back (private: no ioredis type). */
  private readonly sharedCounters: RedisCounters;
  private readonly increments = new TokenIncrementBatch((key, delta) =>
    this.sendIncrement(key, delta),
  );
  /** Identifies this replica's own messages on the channel. */
  protected readonly origin = randomUUID();
  /** What the shared writes (circuit compare-and-set, stickies) need of the store. */
  private readonly link: SharedWriteLink;
  /** Connections, resyncs, outages: when the state above is shared through Redis. */
  private readonly sharing: RedisSharing;

  constructor(options: RedisRouteStateStoreOptions) {
    this.options = resolveRedisStoreOptions(options);
    this.keys = new RedisKeySpace(this.options.keyPrefix);
    this.circuits = new CircuitMirror(this.options.clock, (error) =>
      this.options.logger.warn(`a circuit listener threw: ${this.sharing.redact(error)}`),
    );
    this.stickies = new StickyMirror(this.options.clock);
    this.counters = this.sharedCounters = new RedisCounters({
      keys: this.keys,
      replica: this.origin,
      command: () => this.sharing.command,
      isShared: () => this.isShared(),
      clock: this.options.clock,
      failed: (error) => this.sharing.commandFailed(error),
    });
    this.sharing = new RedisSharing(this.options, {
      keys: this.keys,
      origin: this.origin,
      circuits: this.circuits,
      stickies: this.stickies,
      tokens: this.tokens,
      counters: this.sharedCounters,
      circuitTtl: (record) => this.circuitTtl(record),
      becameShared: () => {
        this.sendUnsyncedTokens();
        this.counters.flushLocal();
      },
    });
    this.link = {
      command: () => this.sharing.command!,
      keys: this.keys,
      origin: this.origin,
      failed: (error) => this.sharing.commandFailed(error),
      lost: (reason) => this.sharing.loseSharing(reason),
    };
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /**
   * Opens the connections and loads the current state. Resolves once the state is shared, or
   * after `connectTimeoutMs` with the store serving locally (it keeps reconnecting and shares as
   * soon as Redis answers) — unless `requireRedisOnStart`, which rejects instead.
   */
  connect(): Promise<void> {
    return this.sharing.connect();
  }

  /** Stops timers and closes the store's connections. The local state stays readable. */
  close(): Promise<void> {
    return this.sharing.close();
  }

  isShared(): boolean {
    return this.sharing.status.isShared();
  }

  get status(): RouteStateSharing {
    return this.sharing.status.current;
  }

  /** Called on every switch between `shared` and `local-only`. Returns an unsubscribe function. */
  onStatusChange(listener: StatusListener): () => void {
    return this.sharing.status.onChange(listener);
  }

  describe(): RedisRouteStateStoreDescription {
    const { status } = this.sharing;
    const description: RedisRouteStateStoreDescription = {
      type: 'redis',
      url: this.sharing.target,
      keyPrefix: this.options.keyPrefix,
      status: status.current,
    };
    if (status.lastError !== undefined) description.lastError = status.lastError;
    return description;
  }

  /** Logging or serialising the store shows its description, never the client's options. */
  toJSON(): RedisRouteStateStoreDescription {
    return this.describe();
  }

  [inspect.custom](): string {
    return `RedisRouteStateStore ${JSON.stringify(this.describe())}`;
  }

  // ---- circuits -----------------------------------------------------------------------------

  getCircuit(key: string): CircuitRecord {
    return this.circuits.get(key);
  }

  listCircuits(prefix = ''): Map<string, CircuitRecord> {
    return this.circuits.list(prefix);
  }

  async compareAndSetCircuit(
    key: string,
    expected: CircuitRecord,
    next: Omit<CircuitRecord, 'version'>,
  ): Promise<{ ok: boolean; record: CircuitRecord }> {
    const ttlMs = this.circuitTtl(next);
    const locally = () => this.compareAndSetLocally(key, expected, next, ttlMs);
    if (!this.isShared()) return locally();
    return compareAndSetShared(this.link, this.circuits, { key, expected, next, ttlMs }, locally);
  }

  /** Listeners hear every change this replica learns of: its own, other replicas', resyncs. */
  onCircuitChange(listener: (key: string, record: CircuitRecord) => void): () => void {
    return this.circuits.onChange(listener);
  }

  // ---- token counters -----------------------------------------------------------------------

  async addTokens(key: string, delta: number): Promise<number> {
    if (typeof delta !== 'number' || !Number.isFinite(delta)) {
      throw new RedisRouteStateStoreException(
        `addTokens('${key}', delta): delta must be a finite number, got ${String(delta)}`,
      );
    }
    if (!this.isShared()) {
      this.tokens.addLocally(key, delta);
      return this.tokens.get(key);
    }
    this.tokens.sent(key, delta);
    await this.increments.add(key, delta);
    return this.tokens.get(key);
  }

  getTokens(key: string): number {
    return this.tokens.get(key);
  }

  // ---- windowed counters and gauges ---------------------------------------------------------

  addToWindow(
    key: string,
    delta: number,
    window: CounterWindow,
  ): WindowedAdd | Promise<WindowedAdd> {
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

  // ---- bounded lists (learned decision examples) ---------------------------------------------

  private lists: SharedLists | undefined;

  appendToList(key: string, value: string, maxLength: number): Promise<void> {
    return this.sharedLists().append(key, value, maxLength);
  }

  readList(key: string): Promise<string[]> {
    return this.sharedLists().read(key);
  }

  private sharedLists(): SharedLists {
    this.lists ??= new SharedLists(
      this.options.keyPrefix,
      () => this.sharing.command,
      () => this.isShared(),
      (error) => this.sharing.commandFailed(error),
    );
    return this.lists;
  }

  // ---- latency sketches (learnt deadlines, hedge delays) ------------------------------------

  private sketches: SharedSketches | undefined;

  /** Adds to a shared sketch and reads it back; `undefined` while Redis is away. */
  mergeSketch(
    key: string,
    add: SketchCounts,
    generationSize: number,
  ): Promise<SketchCounts | undefined> {
    this.sketches ??= new SharedSketches({
      keys: this.keys,
      command: () => this.sharing.command,
      isShared: () => this.isShared(),
      failed: (error) => this.sharing.commandFailed(error),
    });
    return this.sketches.merge(key, add, generationSize);
  }

  // ---- sticky assignments -------------------------------------------------------------------

  getSticky(conversationKey: string): StickyAssignment | undefined {
    return this.stickies.get(conversationKey);
  }

  async setSticky(
    conversationKey: string,
    assignment: StickyAssignment,
    ttlMs: number,
  ): Promise<void> {
    if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw new RedisRouteStateStoreException(
        `setSticky('${conversationKey}'): ttlMs must be a positive number, got ${String(ttlMs)}`,
      );
    }
    if (typeof assignment?.model !== 'string' || assignment.model === '') {
      throw new RedisRouteStateStoreException(
        `setSticky('${conversationKey}'): assignment.model must be a model name`,
      );
    }
    const value = decodeSticky(encodeSticky(assignment))!;
    const ttl = Math.ceil(ttlMs);
    this.stickies.set(conversationKey, value, ttl);
    if (!this.isShared()) {
      this.stickies.markDirty(conversationKey);
      return;
    }
    await writeStickyShared(this.link, this.stickies, conversationKey, value, ttl);
  }

  // ---- internals ----------------------------------------------------------------------------

  /** TTL of a circuit key: `ttlMs` after the cooldown ends, or after the change if none. */
  protected circuitTtl(record: Omit<CircuitRecord, 'version'>): number {
    const cooldownLeft = Math.max(0, (record.cooldownUntil ?? 0) - this.options.clock());
    return Math.ceil(this.options.ttlMs + cooldownLeft);
  }

  protected compareAndSetLocally(
    key: string,
    expected: CircuitRecord,
    next: Omit<CircuitRecord, 'version'>,
    ttlMs: number,
  ): { ok: boolean; record: CircuitRecord } {
    return this.circuits.compareAndSetLocally(
      key,
      expected.version,
      (version) => withVersion(next, version),
      ttlMs,
    );
  }

  /** Increments counted during the last resync round go out once the store shares again. */
  private sendUnsyncedTokens(): void {
    if (!this.tokens.hasUnsynced()) return;
    for (const [key, delta] of this.tokens.takeUnsynced()) void this.increments.add(key, delta);
  }

  /** One coalesced increment (see TokenIncrementBatch); kept to resend if it gets no answer. */
  private async sendIncrement(key: string, delta: number): Promise<void> {
    if (!this.isShared()) {
      this.tokens.failed(key, delta);
      return;
    }
    const increment = { seq: this.tokens.nextSeq(), key, delta };
    try {
      await sendTokenIncrement(
        this.sharing.command!,
        this.keys,
        this.origin,
        this.tokens,
        increment,
      );
    } catch (error) {
      this.sharing.commandFailed(error);
    }
  }
}
