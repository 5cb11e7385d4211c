import type { Redis, RedisOptions } from 'ioredis';
import type { CachedAnswer } from '../core/cache/cache-entry.js';
import type { ResponseCacheStore } from '../core/cache/response-cache-store.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { parseRedisUrl } from './redis-url.js';
import { DEFAULT_KEY_PREFIX, type RedisClient } from './redis-route-state-store-options.js';

export interface RedisResponseCacheStoreOptions {
  /** `redis://…` (the state store's), or an ioredis client to duplicate. */
  url?: string;
  client?: RedisClient;
  /** Default: the state store's prefix, `model-router:`; entries go under `<prefix>cache:`. */
  keyPrefix?: string;
  /** How long a lookup may wait on Redis before it is a miss; default 250 ms. */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
}

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
    const timeout = options.commandTimeoutMs ?? 250;
    const failFast: RedisOptions = {
      lazyConnect: true,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      commandTimeout: timeout,
      connectTimeout: options.connectTimeoutMs ?? 2000,
      disconnectTimeout: timeout,
      retryStrategy: (times: number) => Math.min(50 * 2 ** Math.min(times - 1, 16), 2000),
      keyPrefix: '',
      connectionName: 'model-router-cache',
    };
    let redis: Redis;
    if (options.client !== undefined) {
      redis = (options.client as unknown as Redis).duplicate(failFast);
    } else {
      const { url } = parseRedisUrl(options.url, 'cache: the state store url');
      const Client = await loadIoredis();
      redis = new Client(url, failFast);
    }
    // an error event without a listener would crash the process; the commands report outages
    redis.on('error', () => {});
    // Redis away at start: serve misses until it is back (ioredis keeps reconnecting)
    await redis.connect().catch(() => undefined);
    return new RedisResponseCacheStore(redis, options.keyPrefix ?? DEFAULT_KEY_PREFIX);
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    const json = await this.redis.get(this.prefix + key);
    return json === null ? undefined : (JSON.parse(json) as CachedAnswer);
  }

  async set(key: string, _answer: CachedAnswer, ttlMs: number, json: string): Promise<void> {
    await this.redis.set(this.prefix + key, json, 'PX', Math.max(1, Math.round(ttlMs)));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

async function loadIoredis(): Promise<typeof Redis> {
  try {
    return (await import('ioredis')).Redis;
  } catch {
    throw new InvalidConfigurationException(
      'cache: { store: redis } needs the ioredis package (an optional peer dependency); ' +
        'install it with `npm install ioredis@^6`',
    );
  }
}
