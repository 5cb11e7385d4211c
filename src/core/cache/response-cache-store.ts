import type { CachedAnswer } from './cache-entry.js';

/**
 * Where cached answers live: in memory (LRU, bounded by entries and bytes) or in Redis. A store
 * that fails (Redis down) rejects, and the cache treats that as a miss: it never fails a call.
 */
export interface ResponseCacheStore {
  /** `memory`, `redis` or a name of your own, for status and metrics. */
  readonly kind: string;
  get(key: string): Promise<CachedAnswer | undefined> | CachedAnswer | undefined;
  /** `json` is the answer serialised (its length is its size), for stores that keep strings. */
  set(key: string, answer: CachedAnswer, ttlMs: number, json: string): Promise<void> | void;
  close?(): Promise<void> | void;
}
