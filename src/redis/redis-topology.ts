import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { parseRedisUrl, type ParsedRedisUrl } from './redis-url.js';

/** A Redis node or sentinel: `{ host, port }`. */
export interface RedisNodeAddress {
  host: string;
  port: number;
}

/** A Sentinel group: the sentinels to ask and the name of the master they watch. */
export interface RedisSentinelOptions {
  sentinels: RedisNodeAddress[];
  /** The master group's name (`sentinel monitor <name> …`). */
  name: string;
  /** Password (and ACL user) of the Redis master and replicas. */
  password?: string;
  username?: string;
  /** Password (and ACL user) of the sentinels themselves, when they require one. */
  sentinelPassword?: string;
  sentinelUsername?: string;
  /** Database number. Default 0. */
  db?: number;
  /** TLS to the master (and the sentinels). Default false. */
  tls?: boolean;
}

/** A Redis Cluster: some of its nodes (the client discovers the rest). */
export interface RedisClusterOptions {
  nodes: RedisNodeAddress[];
  password?: string;
  username?: string;
  /** TLS to every node (ElastiCache and MemoryStore with in-transit encryption). Default false. */
  tls?: boolean;
}

/**
 * An ioredis `Redis` or `Cluster` client, typed by what the store uses of it, so that the
 * package's typings compile without ioredis installed (it is an optional peer).
 */
export interface RedisClient {
  duplicate(...args: never[]): unknown;
  readonly options: object;
}

/** Where the store's connections go: exactly one of the four ways to name a Redis. */
export type RedisTopology =
  | { readonly kind: 'url'; readonly url: ParsedRedisUrl }
  | { readonly kind: 'sentinel'; readonly sentinel: RedisSentinelOptions }
  | { readonly kind: 'cluster'; readonly cluster: RedisClusterOptions }
  | { readonly kind: 'client'; readonly client: RedisClient; readonly isCluster: boolean };

const WAYS = ['url', 'sentinel', 'cluster', 'client'] as const;

/** Checks the one topology option given, naming the field that is wrong (never a secret). */
export function resolveTopology(
  options: { url?: unknown; sentinel?: unknown; cluster?: unknown; client?: unknown },
  where: string,
): RedisTopology {
  const given = WAYS.filter((way) => options[way] !== undefined);
  if (given.length !== 1) {
    throw new InvalidConfigurationException(
      `${where} needs exactly one of url, sentinel, cluster and client; ` +
        (given.length === 0 ? 'none was given' : `${given.join(' and ')} were given`),
    );
  }
  switch (given[0]!) {
    case 'url':
      return { kind: 'url', url: parseRedisUrl(options.url, `${where} url`) };
    case 'sentinel':
      return { kind: 'sentinel', sentinel: checkSentinel(options.sentinel, `${where} sentinel`) };
    case 'cluster':
      return { kind: 'cluster', cluster: checkCluster(options.cluster, `${where} cluster`) };
    case 'client': {
      const client = options.client as { duplicate?: unknown; isCluster?: unknown };
      if (typeof client !== 'object' || client === null || typeof client.duplicate !== 'function') {
        throw new InvalidConfigurationException(
          `${where} client must be an ioredis Redis or Cluster instance`,
        );
      }
      return {
        kind: 'client',
        client: client as RedisClient,
        isCluster: client.isCluster === true,
      };
    }
  }
}

function checkSentinel(value: unknown, field: string): RedisSentinelOptions {
  const group = object(value, field, '{ sentinels: [{ host, port }], name: mymaster }');
  known(group, field, [
    'sentinels',
    'name',
    'password',
    'username',
    'sentinelPassword',
    'sentinelUsername',
    'db',
    'tls',
  ]);
  addresses(group.sentinels, `${field}.sentinels`);
  if (typeof group.name !== 'string' || group.name.trim() === '') {
    throw new InvalidConfigurationException(
      `${field}.name must be the master group's name, as in 'sentinel monitor <name> …'`,
    );
  }
  for (const key of ['password', 'username', 'sentinelPassword', 'sentinelUsername']) {
    optionalString(group[key], `${field}.${key}`);
  }
  if (group.db !== undefined && !(Number.isInteger(group.db) && (group.db as number) >= 0)) {
    throw new InvalidConfigurationException(`${field}.db must be a database number, e.g. 0`);
  }
  optionalBoolean(group.tls, `${field}.tls`);
  return group as unknown as RedisSentinelOptions;
}

function checkCluster(value: unknown, field: string): RedisClusterOptions {
  const cluster = object(value, field, '{ nodes: [{ host, port }] }');
  known(cluster, field, ['nodes', 'password', 'username', 'tls']);
  addresses(cluster.nodes, `${field}.nodes`);
  optionalString(cluster.password, `${field}.password`);
  optionalString(cluster.username, `${field}.username`);
  optionalBoolean(cluster.tls, `${field}.tls`);
  return cluster as unknown as RedisClusterOptions;
}

function object(value: unknown, field: string, example: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidConfigurationException(`${field} must be an object like ${example}`);
  }
  return value as Record<string, unknown>;
}

function known(value: Record<string, unknown>, field: string, keys: string[]): void {
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined) {
    throw new InvalidConfigurationException(
      `${field}.${unknown} is not an option here; known: ${keys.join(', ')}`,
    );
  }
}

function addresses(value: unknown, field: string): void {
  if (!Array.isArray(value) || value.length === 0) {
    throw new InvalidConfigurationException(
      `${field} must be a non-empty list like [{ host: 10.0.0.1, port: 26379 }]`,
    );
  }
  value.forEach((entry: unknown, index) => {
    const at = `${field}[${index}]`;
    const address = object(entry, at, '{ host: 10.0.0.1, port: 6379 }');
    known(address, at, ['host', 'port']);
    if (typeof address.host !== 'string' || address.host.trim() === '') {
      throw new InvalidConfigurationException(`${at}.host must be a host name or address`);
    }
    const port = address.port;
    if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65_535) {
      throw new InvalidConfigurationException(`${at}.port must be a port number (1-65535)`);
    }
  });
}

function optionalString(value: unknown, field: string): void {
  if (value !== undefined && (typeof value !== 'string' || value === '')) {
    throw new InvalidConfigurationException(`${field} must be a non-empty string`);
  }
}

function optionalBoolean(value: unknown, field: string): void {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new InvalidConfigurationException(`${field} must be true or false`);
  }
}

/** Where the store shares state, for `describe()` and logs: hosts and ports, never a password. */
export function describeTopology(topology: RedisTopology): string {
  switch (topology.kind) {
    case 'url':
      return topology.url.redacted;
    case 'sentinel': {
      const { sentinels, name } = topology.sentinel;
      return `redis-sentinel://${hostList(sentinels)}/${name}`;
    }
    case 'cluster':
      return `redis-cluster://${hostList(topology.cluster.nodes)}`;
    case 'client':
      return topology.isCluster
        ? `redis-cluster://${hostList(clusterStartupNodes(topology.client))}`
        : describeClientTarget(topology.client);
  }
}

/** Every password of the topology, to scrub from messages of the client. */
export function topologySecrets(topology: RedisTopology): string[] {
  const found: unknown[] = [];
  switch (topology.kind) {
    case 'url':
      return [...topology.url.secrets];
    case 'sentinel':
      found.push(topology.sentinel.password, topology.sentinel.sentinelPassword);
      break;
    case 'cluster':
      found.push(topology.cluster.password);
      break;
    case 'client': {
      const options = topology.client.options as {
        password?: unknown;
        sentinelPassword?: unknown;
        redisOptions?: { password?: unknown };
      };
      found.push(options.password, options.sentinelPassword, options.redisOptions?.password);
    }
  }
  return found.filter((s): s is string => typeof s === 'string' && s !== '');
}

function hostList(nodes: readonly RedisNodeAddress[]): string {
  return nodes.map((node) => `${node.host}:${node.port}`).join(',');
}

function clusterStartupNodes(client: RedisClient): RedisNodeAddress[] {
  const nodes = (client as unknown as { startupNodes?: unknown[] }).startupNodes ?? [];
  return nodes.map((node) =>
    typeof node === 'object' && node !== null
      ? {
          host: String((node as { host?: unknown }).host ?? 'localhost'),
          port: Number((node as { port?: unknown }).port ?? 6379),
        }
      : { host: String(node), port: 6379 },
  );
}

/** Host, port and database of a client, never its password. */
function describeClientTarget(client: RedisClient): string {
  const { host, port, db, tls, username, password, sentinels, name } = client.options as {
    host?: string;
    port?: number;
    db?: number;
    tls?: unknown;
    username?: string;
    password?: string;
    sentinels?: RedisNodeAddress[] | null;
    name?: string;
  };
  if (Array.isArray(sentinels) && sentinels.length > 0) {
    return `redis-sentinel://${hostList(sentinels)}/${name ?? ''}`;
  }
  const scheme = tls ? 'rediss' : 'redis';
  const auth = password ? `${username ?? ''}:***@` : username ? `${username}@` : '';
  return `${scheme}://${auth}${host ?? 'localhost'}:${port ?? 6379}/${db ?? 0}`;
}
