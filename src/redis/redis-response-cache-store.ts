import type { Redis } from 'ioredis';
import type { CachedAnswer } from '../core/cache/cache-entry.js';
import type { ResponseCacheStore } from '../core/cache/response-cache-store.js';
import { closeConnection, openRedisConnections, resetIfTimedOut } from './redis-connections.js';
import {
  resolveRedisStoreOptions,
  type RedisRouteStateStoreOptions,
} from './redis-route-state-store-options.js';

/**
 * Where the cache's connection goes: the state store's Redis (one of `url`, `sentinel`, `cluster`
 * or an ioredis `client`, as `RedisRouteStateStoreOptions` takes them) and its key prefix.
 */
export type RedisResponseCacheStoreOptions = Pick<
  RedisRouteStateStoreOptions,
  'url' | 'sentinel' | 'cluster' | 'client' | 'keyPrefix' | 'connectTimeoutMs'
> & {
  /** How long a lookup may wait on Redis before it is a miss; default 250 ms. */
  commandTimeoutMs?: number;
};

/**
 * Cached answers in Redis, shared by every replica: one string per answer, its TTL in Redis
 * (`SET … PX`). The connection never queues: while Redis is away a lookup fails at once, which
 * the cache serves as a miss, and a store is skipped; the answer itself is never held up.
 */
export class RedisResponseCacheStore implements ResponseCacheStore {
  readonly kind = 'redis';
  private readonly prefix: string;

  private constructor(
    private readonly redis: Redis,
    keyPrefix: string,
  ) {
    this.prefix = `${keyPrefix}cache:`;
  }

  static async connect(options: RedisResponseCacheStoreOptions): Promise<RedisResponseCacheStore> {
    // the state store's fail-fast connection settings, checked the same way (one topology)
    const resolved = resolveRedisStoreOptions({
      ...options,
      commandTimeoutMs: options.commandTimeoutMs ?? 250,
      connectTimeoutMs: options.connectTimeoutMs ?? 2000,
    });
    const { command, subscriber } = await openRedisConnections(resolved);
    subscriber.disconnect(); // lazy: never connected; the cache publishes nothing
    // an error event without a listener would crash the process; the commands report outages
    command.on('error', () => {});
    // Redis away at start: serve misses until it is back (ioredis keeps reconnecting)
    await command.connect().catch(() => undefined);
    return new RedisResponseCacheStore(command, resolved.keyPrefix);
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    const json = await this.reset(this.redis.get(this.prefix + key));
    return json === null ? undefined : (JSON.parse(json) as CachedAnswer);
  }

  async set(key: string, _answer: CachedAnswer, ttlMs: number, json: string): Promise<void> {
    await this.reset(this.redis.set(this.prefix + key, json, 'PX', Math.max(1, Math.round(ttlMs))));
  }

  /** A hung Redis costs one lookup its timeout, not every lookup (see resetIfTimedOut). */
  private async reset<T>(command: Promise<T>): Promise<T> {
    try {
      return await command;
    } catch (error) {
      resetIfTimedOut(this.redis, error);
      throw error;
    }
  }

  async close(): Promise<void> {
    await closeConnection(this.redis);
  }
}
