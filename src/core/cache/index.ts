// The response cache's framework-free parts; the memory and Redis stores are outside core.
export { type CacheKeys, type CacheKeyScope, cacheKeys, stableJson } from './cache-key.js';
export {
  type AnswerChunk,
  type CachedAnswer,
  isCompleteAnswer,
  replayEvents,
} from './cache-entry.js';
export { semanticGuard } from './semantic-guards.js';
export { SemanticIndex, type SemanticMatch, unitVector } from './semantic-index.js';
export {
  DEFAULT_REPLAY_PACING,
  pacedReplay,
  type ReplayPacing,
  type Sleep,
} from './replay-pacing.js';
export type { ResponseCacheStore } from './response-cache-store.js';
export {
  checkResponseCacheConfig,
  durationMs,
  type ResponseCacheConfig,
  routerCacheSettings,
  type RouterCacheConfig,
} from './cache-config.js';
export {
  type CacheControl,
  type CacheLookup,
  type CachePlan,
  type CacheSettings,
  type CacheStats,
  ResponseCache,
  type ResponseCacheOptions,
} from './response-cache.js';
