import type { Redis } from 'ioredis';

/** A shared list outlives a restart by this long after its last append. */
const LIST_TTL_MS = 30 * 24 * 60 * 60_000;

/**
 * The store's bounded lists (a decision router's learned examples): RPUSH + LTRIM in one
 * MULTI, one Redis key per list (`<prefix>list:<key>`; the caller's key carries a `{…}` hash
 * tag, so a router's lists share a Cluster slot). While Redis is away, appends and reads use a
 * local copy, so learning still works on this replica.
 */
export class SharedLists {
  private readonly local = new Map<string, string[]>();

  constructor(
    private readonly prefix: string,
    private readonly command: () => Redis | undefined,
    private readonly shared: () => boolean,
  ) {}

  async append(key: string, value: string, maxLength: number): Promise<void> {
    const list = this.local.get(key) ?? [];
    list.push(value);
    if (list.length > maxLength) list.splice(0, list.length - maxLength);
    this.local.set(key, list);
    const redis = this.command();
    if (!redis || !this.shared()) return;
    const redisKey = this.redisKey(key);
    await redis
      .multi()
      .rpush(redisKey, value)
      .ltrim(redisKey, -maxLength, -1)
      .pexpire(redisKey, LIST_TTL_MS)
      .exec();
  }

  async read(key: string): Promise<string[]> {
    const redis = this.command();
    if (!redis || !this.shared()) return [...(this.local.get(key) ?? [])];
    const values = await redis.lrange(this.redisKey(key), 0, -1);
    this.local.set(key, values);
    return values;
  }

  private redisKey(key: string): string {
    return `${this.prefix}list:${key}`;
  }
}
