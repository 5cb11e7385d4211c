import type { Redis } from 'ioredis';
import type { CircuitRecord } from '../core/state/route-state-store.js';
import type { CircuitMirror } from './circuit-mirror.js';
import { applyChannelMessage } from './redis-channel-message.js';
import {
  closeConnection,
  isClusterConnection,
  resetIfTimedOut,
  openRedisConnections,
  type RedisConnections,
} from './redis-connections.js';
import { describeTopology, topologySecrets } from './redis-topology.js';
import type { RedisKeySpace } from './redis-key-space.js';
import type { ResolvedRedisStoreOptions } from './redis-route-state-store-options.js';
import { RedisRouteStateStoreException } from './redis-route-state-store-exception.js';
import { scrubSecrets } from './redis-url.js';
import { ResyncLoop } from './resync-loop.js';
import { RouteStateSync } from './route-state-sync.js';
import { SharingStatus } from './sharing-status.js';
import type { StickyMirror } from './sticky-mirror.js';
import type { TokenCounters } from './token-counters.js';
import type { RedisCounters } from './redis-counters.js';

/** The store's state that sharing keeps in step with Redis. */
export interface SharedState {
  keys: RedisKeySpace;
  /** Identifies this replica's own messages on the channel. */
  origin: string;
  circuits: CircuitMirror;
  stickies: StickyMirror;
  tokens: TokenCounters;
  counters: RedisCounters;
  /** TTL of a circuit key written now. */
  circuitTtl(record: Omit<CircuitRecord, 'version'>): number;
  /** Sharing (re)started: what was counted locally in the meantime goes out. */
  becameShared(): void;
}

/**
 * The Redis store's sharing lifecycle: it opens the connections, subscribes to the channel,
 * resyncs after every (re)connect, refreshes other replicas' totals, and switches to
 * `local-only` on any outage (a closed connection, a failed command, lost data) until a resync
 * succeeds.
 */
export class RedisSharing {
  readonly status: SharingStatus;
  /** The Redis URL or client target with its password replaced by `***`. */
  readonly target: string;
  private readonly secrets: readonly string[];
  private readonly resyncs: ResyncLoop;
  private connections: RedisConnections | undefined;
  private sync: RouteStateSync | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  private subscribed = false;
  private refreshTimer: NodeJS.Timeout | undefined;
  private refreshing = false;

  constructor(
    private readonly options: ResolvedRedisStoreOptions,
    private readonly state: SharedState,
  ) {
    this.secrets = topologySecrets(options.topology);
    this.target = describeTopology(options.topology);
    this.status = new SharingStatus({
      clock: options.clock,
      warn: (message) => options.logger.warn(message),
      redact: (error) => this.redact(error),
    });
    this.resyncs = new ResyncLoop({
      canStart: () =>
        !this.closed &&
        this.connections?.command.status === 'ready' &&
        this.connections.subscriber.status === 'ready',
      closed: () => this.closed,
      shared: () => this.status.isShared(),
      subscribe: async () => {
        if (this.subscribed) return;
        await this.connections!.subscriber.subscribe(state.keys.channel);
        this.subscribed = true;
      },
      synchronise: () => this.sync!.synchronise(),
      hasLocalChanges: () => this.sync!.hasLocalChanges(),
      pushLocalChanges: () => this.sync!.pushLocalChanges(),
      succeeded: () => this.becomeShared(),
      failed: (error) => {
        this.status.noteError(error);
        resetIfTimedOut(this.connections?.command, error);
        this.loseSharing(`resync failed: ${this.redact(error)}`);
      },
      maxDelayMs: options.maxReconnectDelayMs,
    });
  }

  /** The command connection, once opened. */
  get command(): Redis | undefined {
    return this.connections?.command;
  }

  /** See `RedisRouteStateStore.connect()`. */
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
    this.status.end();
    this.state.circuits.clearListeners();
  }

  commandFailed(error: unknown): void {
    this.status.noteError(error);
    resetIfTimedOut(this.connections?.command, error);
    this.loseSharing(`a Redis command failed: ${this.redact(error)}`);
  }

  /** Switches to local-only (once per outage) and makes sure a resync will follow. */
  loseSharing(reason: string): void {
    this.resyncs.invalidate();
    if (this.closed) return;
    if (this.status.isShared()) {
      this.options.logger.warn(
        `${this.target}: serving route state locally (${reason}); it is shared again once ` +
          'Redis answers',
      );
      this.status.switchTo('local-only', reason);
    }
    this.resyncs.schedule();
  }

  /** An error's message with every spelling of the password removed. */
  redact(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    return scrubSecrets(message, this.secrets);
  }

  private async start(): Promise<void> {
    const { options, state } = this;
    const connections = await openRedisConnections(options);
    if (this.closed) return; // closed while ioredis was loading: never connect
    this.connections = connections;
    this.sync = new RouteStateSync({
      command: connections.command,
      keys: state.keys,
      circuits: state.circuits,
      stickies: state.stickies,
      tokens: state.tokens,
      counters: state.counters,
      origin: state.origin,
      circuitTtl: (record) => state.circuitTtl(record),
      warn: (message) => this.warn(message),
    });
    this.wire(connections);
    this.refreshTimer = setInterval(() => void this.refresh(), options.refreshIntervalMs);
    this.refreshTimer.unref();
    connections.command.connect().catch((error: unknown) => this.status.noteError(error));
    connections.subscriber.connect().catch((error: unknown) => this.status.noteError(error));

    if (await this.status.waitForShared(options.connectTimeoutMs)) return;
    const reason = this.status.lastError ?? 'no answer';
    if (options.requireRedisOnStart) {
      await this.close();
      throw new RedisRouteStateStoreException(
        `could not share route state through Redis at ${this.target} within ` +
          `${options.connectTimeoutMs} ms (${reason}); check the url and that Redis is ` +
          'running, or leave requireRedisOnStart unset to start on local state',
      );
    }
    options.logger.warn(
      `Redis at ${this.target} is not reachable (${reason}); serving route state locally ` +
        'until it is',
    );
  }

  private wire({ command, subscriber }: RedisConnections): void {
    const noteError = (error: unknown) => this.status.noteError(error);
    // A resync writes back this replica's window contributions, which must not race its own
    // live adds: only one that ends an outage runs. (A Cluster may say `ready` again without
    // having closed, e.g. after a failed ready check.)
    const ready = () => {
      if (!this.status.isShared()) this.resyncs.reconnected();
    };
    command.on('ready', ready);
    command.on('close', () => this.loseSharing('the connection to Redis closed'));
    command.on('error', noteError);
    subscriber.on('ready', ready);
    subscriber.on('close', () => {
      this.subscribed = false;
      this.loseSharing('the event connection to Redis closed');
    });
    subscriber.on('error', noteError);
    if (isClusterConnection(command)) {
      // A master that left (it failed, before or while its replica takes over) is an outage like
      // a restart: the store serves locally, resyncs once every slot answers again, and
      // resubscribes. A node dropped after the failover (it no longer owns slots) is not.
      const nodeLeft = (connection: Redis) => (node?: { options?: object }) => {
        const { host, port } = (node?.options ?? {}) as { host?: string; port?: number };
        const key = host === undefined ? undefined : `${host}:${port}`;
        if (key !== undefined && !ownsSlots(connection, key) && !listensOn(connection, key)) return;
        this.subscribed = false;
        this.loseSharing('a Redis Cluster master left');
      };
      command.on('-node', nodeLeft(command));
      subscriber.on('-node', nodeLeft(subscriber));
    }
    const targets = {
      channel: this.state.keys.channel,
      origin: this.state.origin,
      circuits: this.state.circuits,
      stickies: this.state.stickies,
      warn: (message: string) => this.warn(message),
    };
    subscriber.on('message', (channel: string, message: string) =>
      applyChannelMessage(targets, channel, message),
    );
  }

  /** Re-reads the token totals (other replicas' usage) and drops expired entries. */
  private async refresh(): Promise<void> {
    this.state.circuits.sweep();
    this.state.stickies.sweep();
    if (!this.status.isShared() || this.refreshing) return;
    this.refreshing = true;
    try {
      await this.state.counters.refresh();
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
    if (this.status.isShared()) return;
    this.options.logger.log?.(`${this.target}: route state is shared through Redis`);
    this.status.switchTo('shared');
    this.state.becameShared();
  }

  private warn(message: string): void {
    this.options.logger.warn(`${this.target}: ${message}`);
  }
}

/** Whether `key` (`host:port`) masters any slot in the cluster client's current slot map. */
function ownsSlots(cluster: Redis, key: string): boolean {
  const slots = (cluster as unknown as { slots?: (string[] | undefined)[] }).slots;
  return !Array.isArray(slots) || slots.some((owners) => owners?.[0] === key);
}

/** Whether the cluster client's pub/sub connection is on `key` (unknown: assume it is). */
function listensOn(cluster: Redis, key: string): boolean {
  const subscriber = (cluster as unknown as { subscriber?: { getInstance?: () => unknown } })
    .subscriber;
  const instance = subscriber?.getInstance?.() as { options?: { host?: string; port?: number } };
  if (instance?.options === undefined) return false;
  return `${instance.options.host}:${instance.options.port}` === key;
}
