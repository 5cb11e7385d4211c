import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import type {
  CircuitRecord,
  RouteStateStore,
  StickyAssignment,
} from '../core/state/route-state-store.js';
import { CircuitMirror } from './circuit-mirror.js';
import { applyChannelMessage } from './redis-channel-message.js';
import { ResyncLoop } from './resync-loop.js';
import {
  compareAndSetShared,
  type SharedWriteLink,
  writeStickyShared,
} from './redis-shared-writes.js';
import { withVersion } from './circuit-codec.js';
import {
  clientSecrets,
  closeConnection,
  describeClientTarget,
  openRedisConnections,
  type RedisConnections,
} from './redis-connections.js';
import type {
  RedisRouteStateStoreDescription,
  RouteStateSharing,
  RouteStateStatusEvent,
  StatusListener,
} from './redis-store-status.js';
import { RedisKeySpace } from './redis-key-space.js';
import {
  resolveRedisStoreOptions,
  type RedisRouteStateStoreOptions,
  type ResolvedRedisStoreOptions,
} from './redis-route-state-store-options.js';
import { RedisRouteStateStoreException } from './redis-route-state-store-exception.js';
import { scrubSecrets } from './redis-url.js';
import { RouteStateSync } from './route-state-sync.js';
import { decodeSticky, encodeSticky } from './sticky-codec.js';
import { StickyMirror } from './sticky-mirror.js';
import { TokenCounters } from './token-counters.js';
import { TokenIncrementBatch } from './token-increment-batch.js';
import { RedisCounters } from './redis-counters.js';
import type { CounterWindow, WindowedAdd } from '../core/state/counter-store.js';

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
  /** Windowed counters (rpm/tpm, spend) and gauges (latency): see RedisCounters. */
  protected readonly counters: RedisCounters;
  private readonly increments = new TokenIncrementBatch((key, delta) =>
    this.sendIncrement(key, delta),
  );
  /** Identifies this replica's own messages on the channel. */
  protected readonly origin = randomUUID();
  /** What the shared writes (circuit compare-and-set, stickies) need of the store. */
  private readonly link: SharedWriteLink;
  private readonly secrets: readonly string[];
  private readonly target: string;
  private readonly statusListeners = new Set<StatusListener>();
  private connections: RedisConnections | undefined;
  private sync: RouteStateSync | undefined;
  private connecting: Promise<void> | undefined;
  private sharing: RouteStateSharing = 'local-only';
  private lastError: string | undefined;
  private closed = false;
  private subscribed = false;
  private readonly resyncs: ResyncLoop;
  private refreshTimer: NodeJS.Timeout | undefined;
  private refreshing = false;

  constructor(options: RedisRouteStateStoreOptions) {
    this.options = resolveRedisStoreOptions(options);
    this.keys = new RedisKeySpace(this.options.keyPrefix);
    this.link = {
      command: () => this.connections!.command,
      keys: this.keys,
      origin: this.origin,
      failed: (error) => this.commandFailed(error),
      lost: (reason) => this.loseSharing(reason),
    };
    this.secrets = this.options.url?.secrets ?? clientSecrets(this.options.client);
    this.target = this.options.url?.redacted ?? describeClientTarget(this.options.client!);
    this.circuits = new CircuitMirror(this.options.clock, (error) =>
      this.options.logger.warn(`a circuit listener threw: ${this.redact(error)}`),
    );
    this.stickies = new StickyMirror(this.options.clock);
    this.resyncs = new ResyncLoop({
      canStart: () =>
        !this.closed &&
        this.connections?.command.status === 'ready' &&
        this.connections.subscriber.status === 'ready',
      closed: () => this.closed,
      shared: () => this.isShared(),
      subscribe: async () => {
        if (this.subscribed) return;
        await this.connections!.subscriber.subscribe(this.keys.channel);
        this.subscribed = true;
      },
      synchronise: () => this.sync!.synchronise(),
      hasLocalChanges: () => this.sync!.hasLocalChanges(),
      pushLocalChanges: () => this.sync!.pushLocalChanges(),
      succeeded: () => this.becomeShared(),
      failed: (error) => {
        this.noteError(error);
        this.loseSharing(`resync failed: ${this.redact(error)}`);
      },
      maxDelayMs: this.options.maxReconnectDelayMs,
    });
    this.counters = new RedisCounters({
      prefix: this.options.keyPrefix,
      command: () => this.connections?.command,
      isShared: () => this.isShared(),
      clock: this.options.clock,
      failed: (error) => this.commandFailed(error),
    });
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /**
   * Opens the connections and loads the current state. Resolves once the state is shared, or
   * after `connectTimeoutMs` with the store serving locally (it keeps reconnecting and shares as
   * soon as Redis answers) — unless `requireRedisOnStart`, which rejects instead.
   */
  connect(): Promise<void> {
    if (this.closed) {
      return Promise.reject(
        new RedisRouteStateStoreException(
          `the Redis route state store for ${this.target} is closed`,
        ),
      );
    }
    this.connecting ??= this.start();
    return this.connecting;
  }

  /** Stops timers and closes the store's connections. The local state stays readable. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.resyncs.stop();
    clearInterval(this.refreshTimer);
    const connections = this.connections;
    if (connections) {
      await Promise.all([
        closeConnection(connections.command),
        closeConnection(connections.subscriber),
      ]);
    }
    this.sharing = 'local-only';
    this.statusListeners.clear();
    this.circuits.clearListeners();
  }

  isShared(): boolean {
    return this.sharing === 'shared';
  }

  get status(): RouteStateSharing {
    return this.sharing;
  }

  /** Called on every switch between `shared` and `local-only`. Returns an unsubscribe function. */
  onStatusChange(listener: StatusListener): () => void {
    this.statusListeners.add(listener);
    return () => {
      this.statusListeners.delete(listener);
    };
  }

  describe(): RedisRouteStateStoreDescription {
    const description: RedisRouteStateStoreDescription = {
      type: 'redis',
      url: this.target,
      keyPrefix: this.options.keyPrefix,
      status: this.sharing,
    };
    if (this.lastError !== undefined) description.lastError = this.lastError;
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

  private async start(): Promise<void> {
    const connections = await openRedisConnections(this.options);
    if (this.closed) return; // closed while ioredis was loading: never connect
    this.connections = connections;
    this.sync = new RouteStateSync({
      command: connections.command,
      keys: this.keys,
      circuits: this.circuits,
      stickies: this.stickies,
      tokens: this.tokens,
      origin: this.origin,
      circuitTtl: (record) => this.circuitTtl(record),
      warn: (message) => this.options.logger.warn(`${this.target}: ${message}`),
    });
    this.wire(connections);
    this.refreshTimer = setInterval(() => void this.refresh(), this.options.refreshIntervalMs);
    this.refreshTimer.unref();
    connections.command.connect().catch((error: unknown) => this.noteError(error));
    connections.subscriber.connect().catch((error: unknown) => this.noteError(error));

    if (await this.waitForSharing(this.options.connectTimeoutMs)) return;
    const reason = this.lastError ?? 'no answer';
    if (this.options.requireRedisOnStart) {
      await this.close();
      throw new RedisRouteStateStoreException(
        `could not share route state through Redis at ${this.target} within ` +
          `${this.options.connectTimeoutMs} ms (${reason}); check the url and that Redis is ` +
          'running, or leave requireRedisOnStart unset to start on local state',
      );
    }
    this.options.logger.warn(
      `Redis at ${this.target} is not reachable (${reason}); serving route state locally ` +
        'until it is',
    );
  }

  private wire({ command, subscriber }: RedisConnections): void {
    command.on('ready', () => this.resyncs.request());
    command.on('close', () => this.loseSharing('the connection to Redis closed'));
    command.on('error', (error: unknown) => this.noteError(error));
    subscriber.on('ready', () => this.resyncs.request());
    subscriber.on('close', () => {
      this.subscribed = false;
      this.loseSharing('the event connection to Redis closed');
    });
    subscriber.on('error', (error: unknown) => this.noteError(error));
    const targets = {
      channel: this.keys.channel,
      origin: this.origin,
      circuits: this.circuits,
      stickies: this.stickies,
      warn: (message: string) => this.options.logger.warn(`${this.target}: ${message}`),
    };
    subscriber.on('message', (channel: string, message: string) =>
      applyChannelMessage(targets, channel, message),
    );
  }

  private waitForSharing(timeoutMs: number): Promise<boolean> {
    if (this.isShared()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        unsubscribe();
        resolve(this.isShared());
      }, timeoutMs);
      const unsubscribe = this.onStatusChange((event) => {
        if (event.status !== 'shared') return;
        clearTimeout(timer);
        unsubscribe();
        resolve(true);
      });
    });
  }

  /** Re-reads the token totals (other replicas' usage) and drops expired entries. */
  private async refresh(): Promise<void> {
    this.circuits.sweep();
    this.stickies.sweep();
    if (!this.isShared() || this.refreshing) return;
    this.refreshing = true;
    try {
      await this.counters.refresh();
      if (!(await this.sync!.refreshTokenTotals())) {
        this.loseSharing('Redis lost the route state (restarted without persistence, or flushed)');
      }
    } catch (error) {
      this.commandFailed(error);
    } finally {
      this.refreshing = false;
    }
  }

  private becomeShared(): void {
    if (this.sharing === 'shared') return;
    this.sharing = 'shared';
    this.options.logger.log?.(`${this.target}: route state is shared through Redis`);
    this.emitStatus({ status: 'shared', at: this.options.clock() });
    // Increments counted during the last resync round.
    if (this.tokens.hasUnsynced()) {
      for (const [key, delta] of this.tokens.takeUnsynced()) void this.increments.add(key, delta);
    }
  }

  /** One coalesced increment (see TokenIncrementBatch); kept locally if it does not land. */
  private async sendIncrement(key: string, delta: number): Promise<void> {
    if (!this.isShared()) {
      this.tokens.failed(key, delta);
      return;
    }
    try {
      const total = await this.connections!.command.hincrbyfloat(this.keys.tokens, key, delta);
      this.tokens.confirmed(key, delta, Number(total));
    } catch (error) {
      this.tokens.failed(key, delta);
      this.commandFailed(error);
    }
  }

  private commandFailed(error: unknown): void {
    this.noteError(error);
    this.loseSharing(`a Redis command failed: ${this.redact(error)}`);
  }

  /** Switches to local-only (once per outage) and makes sure a resync will follow. */
  private loseSharing(reason: string): void {
    this.resyncs.invalidate();
    if (this.closed) return;
    if (this.sharing === 'shared') {
      this.sharing = 'local-only';
      this.options.logger.warn(
        `${this.target}: serving route state locally (${reason}); it is shared again once ` +
          'Redis answers',
      );
      this.emitStatus({ status: 'local-only', reason, at: this.options.clock() });
    }
    this.resyncs.schedule();
  }

  private emitStatus(event: RouteStateStatusEvent): void {
    for (const listener of this.statusListeners) {
      try {
        listener(event);
      } catch (error) {
        this.options.logger.warn(`a status listener threw: ${this.redact(error)}`);
      }
    }
  }

  private noteError(error: unknown): void {
    this.lastError = this.redact(error);
  }

  /** An error's message with every spelling of the password removed. */
  private redact(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    return scrubSecrets(message, this.secrets);
  }
}
