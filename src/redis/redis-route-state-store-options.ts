import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { logSafe } from '../core/observability/log-safe.js';
import {
  resolveTopology,
  type RedisClient,
  type RedisClusterOptions,
  type RedisSentinelOptions,
  type RedisTopology,
} from './redis-topology.js';

export type { RedisClient } from './redis-topology.js';

/** Where the store reports what it does; Nest's `Logger` fits. Messages never carry a password. */
export interface RedisStoreLogger {
  warn(message: string, ...context: unknown[]): void;
  log?(message: string, ...context: unknown[]): void;
}

export interface RedisRouteStateStoreOptions {
  /**
   * One Redis node: `redis://[:password@]host[:port][/db]` or `rediss://…`. Give exactly one of
   * `url`, `sentinel`, `cluster` and `client`.
   */
  url?: string;
  /** A Sentinel group: `{ sentinels: [{ host, port }], name, password?, sentinelPassword? }`. */
  sentinel?: RedisSentinelOptions;
  /** A Redis Cluster: `{ nodes: [{ host, port }], password? }` (some nodes; the rest are found). */
  cluster?: RedisClusterOptions;
  /**
   * An ioredis `Redis` or `Cluster` client whose connection settings (hosts, sentinels, password,
   * TLS…) the store reuses. The store opens its own two connections from it (`duplicate()`, with
   * fail-fast settings) and closes them on `close()`; the client itself is left alone.
   */
  client?: RedisClient;
  /** Prefix of every key and of the pub/sub channel. Default `model-router:`. */
  keyPrefix?: string;
  /**
   * A circuit that nobody changes for this long (after its cooldown ends) expires in Redis and
   * reads as closed. Default 1 hour.
   */
  ttlMs?: number;
  /** How often token totals are read back from Redis (other replicas' usage). Default 250 ms. */
  refreshIntervalMs?: number;
  /** A Redis command that takes longer fails, and the store carries on locally. Default 500 ms. */
  commandTimeoutMs?: number;
  /** Per connection attempt. Default 2 s. */
  connectTimeoutMs?: number;
  /** Reconnect backoff starts at 50 ms and doubles up to this. Default 2 s. */
  maxReconnectDelayMs?: number;
  /**
   * `connect()` rejects when Redis cannot be reached within `connectTimeoutMs`, instead of
   * starting on local state and sharing once Redis appears. Default false.
   */
  requireRedisOnStart?: boolean;
  /** Local time, for the TTLs of the mirrored entries. */
  clock?: Clock;
  /** Default: console, prefixed `[RedisRouteStateStore]`. Lines have control characters escaped. */
  logger?: RedisStoreLogger;
}

export interface ResolvedRedisStoreOptions {
  readonly topology: RedisTopology;
  readonly keyPrefix: string;
  readonly ttlMs: number;
  readonly refreshIntervalMs: number;
  readonly commandTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly maxReconnectDelayMs: number;
  readonly requireRedisOnStart: boolean;
  readonly clock: Clock;
  readonly logger: RedisStoreLogger;
}

export const DEFAULT_KEY_PREFIX = 'model-router:';

const consoleLogger: RedisStoreLogger = {
  warn: (message) => console.warn(`[RedisRouteStateStore] ${message}`),
  log: (message) => console.log(`[RedisRouteStateStore] ${message}`),
};

/** Checks every option once, at construction, naming the field that is wrong. */
export function resolveRedisStoreOptions(
  options: RedisRouteStateStoreOptions | undefined,
): ResolvedRedisStoreOptions {
  const where = 'RedisRouteStateStore';
  if (typeof options !== 'object' || options === null) {
    throw new InvalidConfigurationException(
      `${where} needs options with a url (redis://host:6379), sentinel, cluster or an ioredis client`,
    );
  }
  const topology = resolveTopology(options, where);
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  if (typeof keyPrefix !== 'string' || keyPrefix.trim() === '') {
    throw new InvalidConfigurationException(
      `${where} keyPrefix must be a non-empty string, e.g. '${DEFAULT_KEY_PREFIX}'`,
    );
  }
  if (options.clock !== undefined && typeof options.clock !== 'function') {
    throw new InvalidConfigurationException(`${where} clock must be a function returning epoch ms`);
  }
  if (
    options.logger !== undefined &&
    (typeof options.logger !== 'object' || typeof options.logger?.warn !== 'function')
  ) {
    throw new InvalidConfigurationException(`${where} logger must have a warn(message) method`);
  }
  return {
    topology,
    keyPrefix,
    ttlMs: positive(options.ttlMs, 3_600_000, `${where} ttlMs`),
    refreshIntervalMs: positive(options.refreshIntervalMs, 250, `${where} refreshIntervalMs`),
    commandTimeoutMs: positive(options.commandTimeoutMs, 500, `${where} commandTimeoutMs`),
    connectTimeoutMs: positive(options.connectTimeoutMs, 2_000, `${where} connectTimeoutMs`),
    maxReconnectDelayMs: positive(
      options.maxReconnectDelayMs,
      2_000,
      `${where} maxReconnectDelayMs`,
    ),
    requireRedisOnStart: options.requireRedisOnStart ?? false,
    clock: options.clock ?? systemClock,
    logger: escaping(options.logger ?? consoleLogger),
  };
}

/**
 * The logger with every line escaped (logSafe), in one place rather than at each call: lines
 * quote circuit keys and store errors, and keys hold model names a gateway's client chose.
 */
function escaping(logger: RedisStoreLogger): RedisStoreLogger {
  const escaped: RedisStoreLogger = {
    warn: (message, ...context) => logger.warn(logSafe(message), ...context),
  };
  if (typeof logger.log === 'function') {
    escaped.log = (message, ...context) => logger.log?.(logSafe(message), ...context);
  }
  return escaped;
}

function positive(value: unknown, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InvalidConfigurationException(
      `${field} must be a positive number of milliseconds, got ${String(value)}`,
    );
  }
  return value;
}
