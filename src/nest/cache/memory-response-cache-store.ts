import { LRUCache } from 'lru-cache';
import type { CachedAnswer } from '../../core/cache/cache-entry.js';
import type { ResponseCacheStore } from '../../core/cache/response-cache-store.js';
import type { Clock } from '../../core/clock.js';

export interface MemoryResponseCacheStoreOptions {
  /** Most answers kept; default 10,000. */
  maxEntries?: number;
  /** Most bytes (characters of the answers' JSON) kept; default 64 MiB. */
  maxBytes?: number;
  /** For TTLs; default the system clock. */
  clock?: Clock;
}

export const DEFAULT_MAX_ENTRIES = 10_000;
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Cached answers in this process, least recently used forgotten first once either bound is
 * reached. `lru-cache` rather than cache-manager's or Keyv's memory stores: it bounds bytes as
 * well as entries, sizes each entry as it is stored (the JSON the cache already made), keeps
 * the answer as an object (a hit parses nothing) and takes the injected clock for TTLs.
 */
export class MemoryResponseCacheStore implements ResponseCacheStore {
  readonly kind = 'memory';
  private readonly lru: LRUCache<string, CachedAnswer>;

  constructor(options: MemoryResponseCacheStoreOptions = {}) {
    const clock = options.clock;
    this.lru = new LRUCache<string, CachedAnswer>({
      max: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
      maxSize: options.maxBytes ?? DEFAULT_MAX_BYTES,
      ttlAutopurge: false,
      // read the clock on every check: the default caches it for a millisecond on a timer
      ttlResolution: 0,
      ...(clock ? { perf: { now: clock } } : {}),
    });
  }

  get size(): number {
    return this.lru.size;
  }

  /** Bytes held (the answers' JSON lengths). */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  get(key: string): CachedAnswer | undefined {
    return this.lru.get(key);
  }

  set(key: string, answer: CachedAnswer, ttlMs: number, json: string): void {
    // larger than the whole store: lru-cache refuses it (and drops an older value of the key)
    this.lru.set(key, answer, { ttl: ttlMs, size: Math.max(1, json.length) });
  }

  close(): void {
    this.lru.clear();
  }
}
