import { z } from 'zod';
import { decimal, flag, integer, oneOf } from './config-fields.js';
import { duration } from './duration-field.js';

/** A router's `cache:` (each field replaces the top level's). */
const routerCacheShape = {
  ttl: duration().optional(),
  /** Answers shared by every caller (API key); default false: each key has its own. */
  shared: flag().optional(),
  /** Match the last user message by meaning at or above `threshold` (cosine). */
  semantic: z.strictObject({ threshold: decimal(0, 1) }).optional(),
  /** How fast a streamed hit is replayed; 0: at once. */
  replay: z.strictObject({ chunksPerSecond: decimal(0) }).optional(),
};

export const routerCacheSchema = z.union([z.literal(false), z.strictObject(routerCacheShape)], {
  error: 'must be false or an object like { ttl: 5m, shared: false }',
});

/**
 * The top-level `cache:`: the store and the default of every router. `redis` uses the `state:`
 * store's connection settings.
 */
export const cacheConfigSchema = z.strictObject({
  ...routerCacheShape,
  store: oneOf(['memory', 'redis']).optional(),
  maxEntries: integer(1).optional(),
  maxBytes: integer(1).optional(),
  maxValueBytes: integer(1).optional(),
});

export type CacheConfigSection = z.output<typeof cacheConfigSchema>;
export type RouterCacheSection = z.output<typeof routerCacheSchema>;
