import type { ResponseCacheConfig, RouterCacheConfig } from '../core/cache/cache-config.js';
import type { EmbeddingModel } from '../core/embeddings/embedding-model.js';
import { WordVectorEmbeddingModel } from '../embedded/word-vector-embedding-model.js';
import { RedisResponseCacheStore } from '../redis/redis-response-cache-store.js';
import { checkRouteStateConfig } from '../redis/route-state-store-config.js';
import { InvalidModelRouterConfigException } from './invalid-model-router-config.exception.js';
import type { ModelRouterConfig } from './model-router-config.js';

/** The default embeddings of semantic matching: the shipped word vectors, offline. */
export function defaultCacheEmbeddings(): EmbeddingModel {
  return new WordVectorEmbeddingModel({ name: 'cache-word-vectors' });
}

/**
 * The module's `cache` option from the configuration's `cache:` blocks (top level and per
 * router), or undefined when no router is cached. `store: redis` connects with the `state:`
 * store's URL and key prefix; semantic matching gets the shipped word vectors.
 */
export async function buildResponseCacheConfig(
  config: ModelRouterConfig,
): Promise<ResponseCacheConfig | undefined> {
  const top = config.cache;
  const routers: Record<string, RouterCacheConfig | false> = {};
  let semantic = top?.semantic !== undefined;
  for (const [name, router] of Object.entries(config.routers)) {
    if (router.cache === undefined) continue;
    routers[name] = router.cache;
    if (router.cache !== false && router.cache.semantic !== undefined) semantic = true;
  }
  if (top === undefined && Object.keys(routers).length === 0) return undefined;
  const { store, ...settings } = top ?? {};
  return {
    ...settings,
    ...(store === 'redis' ? { store: await redisStore(config) } : {}),
    ...(semantic ? { embeddings: defaultCacheEmbeddings() } : {}),
    ...(Object.keys(routers).length > 0 ? { routers } : {}),
  };
}

async function redisStore(config: ModelRouterConfig): Promise<RedisResponseCacheStore> {
  const state = config.state === undefined ? undefined : checkRouteStateConfig(config.state);
  if (state?.type !== 'redis') {
    throw new InvalidModelRouterConfigException([
      "cache.store: redis uses the state store's connection: set state: { type: redis, url | sentinel | cluster: … }",
    ]);
  }
  return RedisResponseCacheStore.connect({
    ...(state.url !== undefined ? { url: state.url } : {}),
    ...(state.sentinel !== undefined ? { sentinel: state.sentinel } : {}),
    ...(state.cluster !== undefined ? { cluster: state.cluster } : {}),
    ...(state.keyPrefix !== undefined ? { keyPrefix: state.keyPrefix } : {}),
    ...(state.commandTimeoutMs !== undefined ? { commandTimeoutMs: state.commandTimeoutMs } : {}),
    ...(state.connectTimeoutMs !== undefined ? { connectTimeoutMs: state.connectTimeoutMs } : {}),
  });
}
