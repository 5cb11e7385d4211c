import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { InMemoryRouteStateStore } from '../core/state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../core/state/route-state-store.js';
import { RedisRouteStateStore } from './redis-route-state-store.js';
import {
  resolveRedisStoreOptions,
  type RedisRouteStateStoreOptions,
} from './redis-route-state-store-options.js';
import type { RedisClusterOptions, RedisSentinelOptions } from './redis-topology.js';

/**
 * The store options a configuration may set: what YAML can hold (no client, clock or logger).
 * One list for the type and the key check, so a setting cannot be typed but rejected.
 */
const REDIS_CONFIG_OPTIONS = [
  'keyPrefix',
  'ttlMs',
  'refreshIntervalMs',
  'commandTimeoutMs',
  'connectTimeoutMs',
  'maxReconnectDelayMs',
  'requireRedisOnStart',
] as const satisfies readonly (keyof RedisRouteStateStoreOptions)[];

/** `state:` in the YAML configuration and the module options. */
export type RouteStateConfig =
  | { type: 'memory' }
  | ({ type: 'redis' } & RedisConfigTopology &
      Pick<RedisRouteStateStoreOptions, (typeof REDIS_CONFIG_OPTIONS)[number]>);

/** Exactly one way to reach Redis: one node, a Sentinel group, or a Cluster. */
export type RedisConfigTopology =
  | { url: string; sentinel?: never; cluster?: never }
  | { sentinel: RedisSentinelOptions; url?: never; cluster?: never }
  | { cluster: RedisClusterOptions; url?: never; sentinel?: never };

const REDIS_FIELDS = new Set<string>([
  'type',
  'url',
  'sentinel',
  'cluster',
  ...REDIS_CONFIG_OPTIONS,
]);

/**
 * Builds the store a configuration asks for, connected (for Redis: after the first sync, or
 * serving locally if Redis does not answer in time). `field` names the configuration entry in
 * error messages, e.g. `state` or `modelRouter.state`. `extra` passes what YAML cannot hold
 * (a logger, a clock).
 */
export async function createRouteStateStore(
  config: unknown,
  {
    field = 'state',
    ...extra
  }: { field?: string } & Pick<RedisRouteStateStoreOptions, 'logger' | 'clock'> = {},
): Promise<RouteStateStore> {
  const checked = checkRouteStateConfig(config, field);
  if (checked.type === 'memory') return new InMemoryRouteStateStore(extra.clock);
  const { type: _type, ...redis } = checked;
  return RedisRouteStateStore.connect({ ...redis, ...extra });
}

/** Validates a `state:` configuration, naming the offending field; never echoes the URL. */
export function checkRouteStateConfig(config: unknown, field = 'state'): RouteStateConfig {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new InvalidConfigurationException(
      `${field} must be an object like { type: redis, url: redis://host:6379 } or { type: memory }`,
    );
  }
  const value = config as Record<string, unknown>;
  if (value.type === 'memory') {
    const extra = Object.keys(value).filter((key) => key !== 'type');
    if (extra.length > 0) {
      throw new InvalidConfigurationException(
        `${field}.${extra[0]} is not an option of the memory state store (it takes none)`,
      );
    }
    return { type: 'memory' };
  }
  if (value.type !== 'redis') {
    throw new InvalidConfigurationException(
      `${field}.type must be 'redis' or 'memory', got ${JSON.stringify(value.type) ?? 'nothing'}`,
    );
  }
  for (const key of Object.keys(value)) {
    if (!REDIS_FIELDS.has(key)) {
      throw new InvalidConfigurationException(
        `${field}.${key} is not an option of the redis state store; known: ${[...REDIS_FIELDS].join(', ')}`,
      );
    }
  }
  const ways = ['url', 'sentinel', 'cluster'].filter((way) => value[way] !== undefined);
  if (ways.length > 1) {
    throw new InvalidConfigurationException(
      `${field} takes exactly one of url, sentinel and cluster; ${ways.join(' and ')} were given`,
    );
  }
  if (ways.length === 0) {
    throw new InvalidConfigurationException(
      `${field}.url is required for the redis state store, e.g. redis://:password@host:6379/0 ` +
        `(or ${field}.sentinel: { sentinels: [{ host, port }], name }, ` +
        `or ${field}.cluster: { nodes: [{ host, port }] })`,
    );
  }
  if (value.requireRedisOnStart !== undefined && typeof value.requireRedisOnStart !== 'boolean') {
    throw new InvalidConfigurationException(`${field}.requireRedisOnStart must be true or false`);
  }
  for (const key of ['keyPrefix'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') {
      throw new InvalidConfigurationException(`${field}.${key} must be a string`);
    }
  }
  // The store checks URLs and numbers itself; relabel its messages with the config path.
  try {
    resolveRedisStoreOptions(value as RedisRouteStateStoreOptions);
  } catch (error) {
    if (error instanceof InvalidConfigurationException) {
      throw new InvalidConfigurationException(
        error.message.replace(/^RedisRouteStateStore /, `${field}.`),
      );
    }
    throw error;
  }
  return value as RouteStateConfig;
}
