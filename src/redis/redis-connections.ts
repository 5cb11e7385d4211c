import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import type { ResolvedRedisStoreOptions } from './redis-route-state-store-options.js';
import type { RedisTopology } from './redis-topology.js';

type IoredisModule = { Redis: typeof Redis; Cluster: typeof Cluster };

/**
 * The store's commands go to a `Redis` (one node, or the master a Sentinel group names) or a
 * `Cluster`; both are typed as `Redis`, whose commands a Cluster shares (it routes each by its
 * key's slot). What only works on one node (SCAN) checks `isCluster` first.
 */
export interface RedisConnections {
  /** Commands: scripts, counters, scans. */
  readonly command: Redis;
  /** Pub/sub only (a subscribed connection cannot run ordinary commands). */
  readonly subscriber: Redis;
}

/**
 * A master that turned replica answers READONLY: reconnect, to the new master (a Sentinel group
 * names it; a URL's DNS name, as managed Redis services give, moves to it after a failover).
 */
const demoted = (error: Error): boolean => error.message.startsWith('READONLY');

/** Whether a connection is an ioredis Cluster. */
export function isClusterConnection(client: Redis): boolean {
  return (client as unknown as { isCluster?: boolean }).isCluster === true;
}

/** The masters of a cluster (each holds its own part of the keys), or the one node. */
export function mastersOf(client: Redis): Redis[] {
  return isClusterConnection(client) ? (client as unknown as Cluster).nodes('master') : [client];
}

/**
 * Two connections tuned so that a request never waits on Redis: no offline queue (a command
 * while disconnected fails at once), a short command timeout, no replay of unanswered commands
 * after a reconnect (the store decides what to resend), and a capped reconnect backoff. A
 * Sentinel group's client asks the sentinels for the master on every reconnect (so a failover is
 * an ordinary reconnect); a Cluster's follows MOVED replies and refreshes its slots.
 */
export async function openRedisConnections(
  options: ResolvedRedisStoreOptions,
): Promise<RedisConnections> {
  const retry = (times: number) =>
    Math.min(50 * 2 ** Math.min(times - 1, 16), options.maxReconnectDelayMs);
  const failFast = (name: string): RedisOptions => ({
    lazyConnect: true,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    autoResubscribe: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: options.connectTimeoutMs,
    // How long a closing socket may linger; ioredis keeps the process alive for it, even for a
    // socket that is already gone.
    disconnectTimeout: options.commandTimeoutMs,
    retryStrategy: retry,
    // Keys are prefixed by the store itself: the client's own prefix would not apply to SCAN
    // patterns or channels.
    keyPrefix: '',
    connectionName: name,
  });
  const clusterOptions = (name: string, redisOptions: RedisOptions = {}): ClusterOptions => {
    const { retryStrategy: _retry, enableOfflineQueue: _queue, ...perNode } = failFast(name);
    return {
      lazyConnect: true,
      enableOfflineQueue: false,
      scaleReads: 'master',
      clusterRetryStrategy: retry,
      // during a failover the store serves locally and resyncs, rather than queueing requests
      retryDelayOnFailover: 50,
      retryDelayOnClusterDown: 50,
      slotsRefreshTimeout: options.connectTimeoutMs,
      slotsRefreshInterval: 1_000,
      redisOptions: { ...redisOptions, ...perNode },
    };
  };
  const open = (name: string): ((module: IoredisModule, topology: RedisTopology) => Redis) => {
    return ({ Redis: Client, Cluster: ClusterClient }, topology) => {
      switch (topology.kind) {
        case 'url':
          return new Client(topology.url.url, { ...failFast(name), reconnectOnError: demoted });
        case 'sentinel': {
          const { sentinels, tls, ...auth } = topology.sentinel;
          return new Client({
            ...failFast(name),
            ...auth,
            sentinels,
            ...(tls ? { tls: {}, enableTLSForSentinelMode: true } : {}),
            sentinelRetryStrategy: retry,
            reconnectOnError: demoted,
          } as RedisOptions);
        }
        case 'cluster': {
          const { nodes, tls, ...auth } = topology.cluster;
          const cluster = new ClusterClient(nodes, {
            ...clusterOptions(name, { ...auth, ...(tls ? { tls: {} } : {}) }),
            // TLS certificates name the host, not the address a node announces
            ...(tls ? { dnsLookup: (address, lookup) => lookup(null, address) } : {}),
          });
          return cluster as unknown as Redis;
        }
        case 'client': {
          if (topology.isCluster) {
            const template = topology.client as unknown as Cluster;
            const own = clusterOptions(name);
            return template.duplicate(undefined, {
              ...own,
              redisOptions: { ...template.options.redisOptions, ...own.redisOptions },
            }) as unknown as Redis;
          }
          return (topology.client as unknown as Redis).duplicate({
            ...failFast(name),
            reconnectOnError: demoted,
          });
        }
      }
    };
  };
  const module = await loadIoredis();
  return {
    command: open('model-router-state')(module, options.topology),
    subscriber: open('model-router-state-events')(module, options.topology),
  };
}

/**
 * ioredis is an optional peer dependency: loaded only when a Redis store connects, so that apps
 * without Redis can import the library without installing it.
 */
async function loadIoredis(): Promise<IoredisModule> {
  try {
    return await import('ioredis');
  } catch {
    throw new InvalidConfigurationException(
      'the Redis route state store needs the ioredis package (an optional peer dependency); ' +
        'install it with `npm install ioredis@^6`',
    );
  }
}

/**
 * After a command timed out, drops the connection and reconnects. ioredis keeps a timed-out
 * command in its queue until a reply arrives, and a Redis that hangs with its TCP connection open
 * (SIGSTOP, `DEBUG SLEEP`, `CLIENT PAUSE`, a stalled network) answers none: every later command
 * would wait the whole timeout and pile up in the queue. Dropping the connection rejects them all
 * at once; until the reconnect's ready check answers, commands fail at once (no offline queue), so
 * nothing waits on the hung Redis and nothing accumulates. Returns whether it reset.
 */
export function resetIfTimedOut(client: Redis | undefined, error: unknown): boolean {
  if (client === undefined || !isCommandTimeout(error) || client.status !== 'ready') return false;
  client.disconnect(true);
  return true;
}

/** ioredis's `commandTimeout` rejection. */
export function isCommandTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'Command timed out';
}

/** QUIT when connected (lets pending replies arrive), then make sure the socket is gone. */
export async function closeConnection(client: Redis): Promise<void> {
  if (isClusterConnection(client)) {
    stopSlotsRefresh(client);
    // QUIT would go to every node of the pool, connecting the idle ones first
    const ended = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1_000);
      timer.unref();
      client.once('end', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    client.disconnect();
    await ended;
    return;
  }
  if (client.status === 'ready') {
    try {
      await client.quit();
    } catch {
      // already going away
    }
  }
  if (client.status === 'end') return;
  // Between attempts there is no socket: disconnecting only cancels the next attempt.
  const hasSocket = ['connecting', 'connect', 'ready'].includes(client.status);
  const ended = hasSocket
    ? new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1_000);
        timer.unref();
        client.once('end', () => {
          clearTimeout(timer);
          resolve();
        });
      })
    : Promise.resolve();
  client.disconnect();
  await ended;
}

/** What ioredis 6 keeps of a cluster's periodic slots refresh (not part of its typed API). */
interface SlotsRefresh {
  isRefreshing?: boolean;
  clearNodesRefreshInterval?: () => void;
  refreshSlotsCache(callback?: () => void): void;
}

/**
 * ioredis 6 arms a cluster's next `slotsRefreshInterval` round when a refresh answers, without
 * looking at the status: a refresh in flight at disconnect arms it again after the disconnect
 * cleared it, and from then on it refreshes an empty pool every interval, for ever, keeping the
 * process alive. A callback queued behind that refresh's own clears the round it arms.
 */
function stopSlotsRefresh(client: Redis): void {
  const cluster = client as unknown as SlotsRefresh;
  if (cluster.isRefreshing !== true || typeof cluster.clearNodesRefreshInterval !== 'function') {
    return;
  }
  cluster.refreshSlotsCache(() => cluster.clearNodesRefreshInterval!());
}
