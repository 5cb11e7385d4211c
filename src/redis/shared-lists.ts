import type { Redis } from 'ioredis';

/** A shared list outlives a restart by this long after its last append. */
const LIST_TTL_MS = 30 * 24 * 60 * 60_000;

/**
 * The store's bounded lists (a decision router's learned examples): RPUSH + LTRIM in one
 * MULTI, one Redis key per list (`<prefix>list:<key>`; the caller's key carries a `{…}` hash
 * tag, so a router's lists share a Cluster slot). While Redis is away, appends and reads use a
 * local copy, so learning still works on this replica; a command that fails (a timeout, OOM,
 * READONLY) is reported to the store, which goes local until it resyncs, and never reaches the
 * caller (a feedback call is not refused because Redis misbehaves).
 */
export class SharedLists {
  private readonly local = new Map<string, string[]>();

  constructor(
    private readonly prefix: string,
    private readonly command: () => Redis | undefined,
    private readonly shared: () => boolean,
    private readonly failed: (error: unknown) => void,
  ) {}

  async append(key: string, value: string, maxLength: number): Promise<void> {
    const list = this.local.get(key) ?? [];
    list.push(value);
    if (list.length > maxLength) list.splice(0, list.length - maxLength);
    this.local.set(key, list);
    const redis = this.command();
    if (!redis || !this.shared()) return;
    const redisKey = this.redisKey(key);
    try {
      await redis
        .multi()
        .rpush(redisKey, value)
        .ltrim(redisKey, -maxLength, -1)
        .pexpire(redisKey, LIST_TTL_MS)
        .exec();
    } catch (error) {
      this.failed(error);
    }
  }

  async read(key: string): Promise<string[]> {
    const redis = this.command();
    if (!redis || !this.shared()) return [...(this.local.get(key) ?? [])];
    try {
      const values = await redis.lrange(this.redisKey(key), 0, -1);
      this.local.set(key, values);
      return values;
    } catch (error) {
      this.failed(error);
      return [...(this.local.get(key) ?? [])];
    }
  }

  private redisKey(key: string): string {
    return `${this.prefix}list:${key}`;
  }
}
