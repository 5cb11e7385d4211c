// nest-model-router/redis: the Redis RouteStateStore (ioredis, an optional peer).

export { RedisRouteStateStore } from './redis-route-state-store.js';
export type {
  RouteStateSharing,
  RouteStateStatusEvent,
  RedisRouteStateStoreDescription,
} from './redis-store-status.js';
export {
  DEFAULT_KEY_PREFIX,
  type RedisRouteStateStoreOptions,
  type RedisStoreLogger,
  type RedisClient,
} from './redis-route-state-store-options.js';
export { RedisRouteStateStoreException } from './redis-route-state-store-exception.js';
export {
  createRouteStateStore,
  checkRouteStateConfig,
  type RouteStateConfig,
  type RedisConfigTopology,
} from './route-state-store-config.js';
export { redactRedisUrl } from './redis-url.js';
export {
  RedisResponseCacheStore,
  type RedisResponseCacheStoreOptions,
} from './redis-response-cache-store.js';
export type {
  RedisSentinelOptions,
  RedisClusterOptions,
  RedisNodeAddress,
} from './redis-topology.js';
