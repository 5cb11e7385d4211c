import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import type { ReplayPacing } from './replay-pacing.js';
import type { CacheSettings } from './response-cache.js';
import type { ResponseCacheStore } from './response-cache-store.js';

/** A router's own cache settings: each replaces the default's; `false` turns the cache off. */
export interface RouterCacheConfig {
  /** `'250ms'`, `'20s'`, `'5m'`, `'1h'`, or milliseconds. */
  ttl?: number | string;
  shared?: boolean;
  semantic?: { threshold: number };
  replay?: ReplayPacing;
}

/**
 * The response cache (module option `cache`, YAML `cache:`): the store, the default settings of
 * every router (when `ttl` is set) and each router's own (`routers.<name>`, or `false`).
 */
export interface ResponseCacheConfig extends RouterCacheConfig {
  /** `memory` (default) or a store (e.g. `await RedisResponseCacheStore.connect(…)`). */
  store?: 'memory' | ResponseCacheStore;
  /** Memory store: most answers kept (LRU); default 10,000. */
  maxEntries?: number;
  /** Memory store: most bytes kept (LRU); default 64 MiB. */
  maxBytes?: number;
  /** The largest answer stored, in characters of JSON; default 1 MiB. */
  maxValueBytes?: number;
  /** Compares questions for `semantic` (default, through the YAML: the shipped word vectors). */
  embeddings?: EmbeddingModel;
  routers?: Record<string, RouterCacheConfig | false>;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `'250ms'`, `'20s'`, `'5m'`, `'1h'` or a number of milliseconds. */
export function durationMs(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  const match =
    typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value) : null;
  if (match !== null) {
    const ms = Number(match[1]) * UNITS[match[2] ?? 'ms']!;
    if (ms > 0) return ms;
  }
  throw new InvalidConfigurationException(
    `${field} must be a duration above zero: '250ms', '20s', '5m', '1h' or milliseconds`,
  );
}

/** A router's settings: its own over the default; undefined when its cache is off. */
export function routerCacheSettings(
  config: ResponseCacheConfig,
  router: string | undefined,
): CacheSettings | undefined {
  const own = router === undefined ? undefined : config.routers?.[router];
  if (own === false) return undefined;
  const field = own !== undefined ? `cache.routers.${router}` : 'cache';
  const merged: RouterCacheConfig = { ...pick(config), ...own };
  if (merged.ttl === undefined) return undefined;
  return {
    ttlMs: durationMs(merged.ttl, `${field}.ttl`),
    ...(merged.shared !== undefined ? { shared: merged.shared } : {}),
    ...(merged.semantic !== undefined ? { semantic: merged.semantic } : {}),
    ...(merged.replay !== undefined ? { replay: merged.replay } : {}),
  };
}

/** Checks the whole configuration at start, naming the field of the first problem. */
export function checkResponseCacheConfig(config: ResponseCacheConfig, routers: string[]): void {
  if (typeof config !== 'object' || config === null) {
    throw new InvalidConfigurationException('cache must be an object like { ttl: 5m }');
  }
  checkRouterCache(config, 'cache');
  const { store } = config;
  if (store !== undefined && store !== 'memory' && typeof store?.get !== 'function') {
    throw new InvalidConfigurationException(
      "cache.store must be 'memory' or a ResponseCacheStore (e.g. RedisResponseCacheStore)",
    );
  }
  for (const name of ['maxEntries', 'maxBytes', 'maxValueBytes'] as const) {
    const value = config[name];
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new InvalidConfigurationException(`cache.${name} must be a positive integer`);
    }
  }
  for (const [name, own] of Object.entries(config.routers ?? {})) {
    if (!routers.includes(name)) {
      throw new InvalidConfigurationException(`cache.routers.${name}: no router of that name`);
    }
    if (own !== false) checkRouterCache(own, `cache.routers.${name}`);
    const settings = routerCacheSettings(config, name);
    if (settings?.semantic !== undefined && config.embeddings === undefined) {
      throw new InvalidConfigurationException(
        `cache.routers.${name}.semantic needs cache.embeddings (e.g. a WordVectorEmbeddingModel)`,
      );
    }
  }
  if (config.semantic !== undefined && config.embeddings === undefined) {
    throw new InvalidConfigurationException(
      'cache.semantic needs cache.embeddings (e.g. a WordVectorEmbeddingModel)',
    );
  }
}

function checkRouterCache(config: RouterCacheConfig, field: string): void {
  if (typeof config !== 'object' || config === null) {
    throw new InvalidConfigurationException(`${field} must be an object, or false`);
  }
  if (config.ttl !== undefined) durationMs(config.ttl, `${field}.ttl`);
  if (config.shared !== undefined && typeof config.shared !== 'boolean') {
    throw new InvalidConfigurationException(`${field}.shared must be true or false`);
  }
  const threshold = config.semantic?.threshold;
  if (
    config.semantic !== undefined &&
    !(typeof threshold === 'number' && threshold > 0 && threshold <= 1)
  ) {
    throw new InvalidConfigurationException(
      `${field}.semantic.threshold must be a number in (0, 1]`,
    );
  }
  const rate = config.replay?.chunksPerSecond;
  if (
    config.replay !== undefined &&
    !(typeof rate === 'number' && rate >= 0 && Number.isFinite(rate))
  ) {
    throw new InvalidConfigurationException(
      `${field}.replay.chunksPerSecond must be a number of chunks per second (0: no pacing)`,
    );
  }
}

function pick(config: ResponseCacheConfig): RouterCacheConfig {
  const { ttl, shared, semantic, replay } = config;
  return {
    ...(ttl !== undefined ? { ttl } : {}),
    ...(shared !== undefined ? { shared } : {}),
    ...(semantic !== undefined ? { semantic } : {}),
    ...(replay !== undefined ? { replay } : {}),
  };
}
