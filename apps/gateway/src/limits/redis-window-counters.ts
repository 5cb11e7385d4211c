import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { type Clock } from 'nest-model-router';
import { logSafe, scrubCredentials } from 'nest-model-router/core';
import { MemoryWindowCounters, type WindowCount, type WindowCounters } from './window-counters.js';

/**
 * Add-unless-over-limit in one step, so two replicas racing for the last request of a window
 * cannot both get it. Returns { total, added }. ARGV: amount, limit (-1: none), ttl ms.
 */
const ADD_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
if limit >= 0 and current + amount > limit then return {current, 0} end
if amount > 0 then
  current = redis.call('INCRBY', KEYS[1], amount)
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return {current, 1}
`;

/**
 * Window counters in Redis, so per-key limits hold across every replica that shares it. Redis
 * answers within the command timeout or not at all: while it does not, each replica counts on
 * its own (limits then hold per replica) rather than refusing or stalling requests.
 */
export class RedisWindowCounters implements WindowCounters {
  private readonly logger = new Logger('GatewayRateLimits');
  private readonly local: MemoryWindowCounters;
  private degraded = false;

  constructor(
    private readonly redis: Redis,
    private readonly options: { keyPrefix: string; clock?: Clock; secrets?: readonly string[] },
  ) {
    this.local = new MemoryWindowCounters(options.clock);
    // ioredis reports connection errors as events; unhandled, they would crash the process
    redis.on('error', (error: Error) => this.degrade(error));
  }

  async add(key: string, amount: number, windowMs: number, limit?: number): Promise<WindowCount> {
    const now = (this.options.clock ?? Date.now)();
    const window = Math.floor(now / windowMs);
    const redisKey = `${this.options.keyPrefix}ratelimit:${key}:${window}`;
    try {
      const [total, added] = (await this.redis.eval(
        ADD_SCRIPT,
        1,
        redisKey,
        amount,
        limit ?? -1,
        // kept a window past its end: the clock of another replica may lag a little
        windowMs * 2,
      )) as [number, number];
      if (this.degraded) {
        this.degraded = false;
        this.logger.log('Redis answers again: rate limits are shared across replicas');
      }
      return { total, added: added === 1, resetMs: (window + 1) * windowMs - now };
    } catch (error) {
      this.degrade(error);
      return this.local.add(key, amount, windowMs, limit);
    }
  }

  async close(): Promise<void> {
    try {
      if (this.redis.status === 'ready') await this.redis.quit();
      else this.redis.disconnect();
    } catch {
      this.redis.disconnect();
    }
  }

  private degrade(error: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    const message = error instanceof Error ? error.message : String(error);
    let safe = scrubCredentials(message);
    for (const secret of this.options.secrets ?? []) safe = safe.replaceAll(secret, '***');
    this.logger.warn(
      logSafe(
        `Redis is unavailable (${safe}); rate limits are counted per replica until it returns`,
      ),
    );
  }
}

/** A fail-fast ioredis connection (no offline queue, short timeouts), as the state store uses. */
export async function connectRedisCounters(
  url: string,
  options: { keyPrefix: string; clock?: Clock; secrets?: readonly string[] },
): Promise<RedisWindowCounters> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2_000,
    disconnectTimeout: 500,
    retryStrategy: (times: number) => Math.min(50 * 2 ** Math.min(times - 1, 16), 5_000),
    connectionName: 'model-router-gateway-limits',
  });
  const counters = new RedisWindowCounters(client, options);
  // not awaited: a gateway starts (and counts locally) while Redis is away
  client.connect().catch(() => undefined);
  return counters;
}
