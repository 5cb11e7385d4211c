import { Redis } from 'ioredis';
import type { RedisRouteStateStoreOptions } from '../../src/redis/redis-route-state-store-options.js';
import { freeLoopbackPort, startRedisServer, type RedisServer } from './redis-server.js';

/** Real Redis servers that make up one topology, and how the store reaches them. */
export interface RedisTopologyUnderTest {
  readonly name: string;
  /** What a store gets to connect: `{ url }`, `{ sentinel }` or `{ cluster }`. */
  readonly connection: Pick<RedisRouteStateStoreOptions, 'url' | 'sentinel' | 'cluster'>;
  /** SIGKILLs the master that serves `key` (the one master of a Sentinel group); resolves once
   * a replica has taken over and answers as master. Returns the killed server. */
  failOverMasterOf(key: string): Promise<RedisServer>;
  stop(): Promise<void>;
}

const FAILOVER_TIMEOUT_MS = 20_000;

/**
 * Failure detection in about a second: fast enough for a test that kills a master, slow enough
 * that a loaded CI machine does not fail a master over on its own in the middle of another test.
 */
const CLUSTER_ARGS = [
  '--cluster-enabled',
  'yes',
  '--cluster-node-timeout',
  '1000',
  // a replica fails over however long ago it last heard from its master
  '--cluster-replica-validity-factor',
  '0',
  '--repl-diskless-sync',
  'yes',
  '--repl-diskless-sync-delay',
  '0',
];

/**
 * A Redis Cluster of `masters` masters with one replica each, set up by hand (slot ranges, MEET,
 * REPLICATE) so it needs nothing but redis-server, and waits in steps of milliseconds.
 */
export async function startRedisCluster(masters = 3): Promise<RedisTopologyUnderTest> {
  // the bus port named (and probed) rather than the default port + 10000, which nothing probes:
  // bound unannounced, it could take a port another test's probe had just handed out
  const busPorts = await Promise.all(Array.from({ length: masters * 2 }, () => freeLoopbackPort()));
  const servers = await Promise.all(
    busPorts.map((bus) =>
      startRedisServer({ args: [...CLUSTER_ARGS, '--cluster-port', String(bus)] }),
    ),
  );
  const admin = servers.map(
    (server) =>
      new Redis(server.port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null }),
  );
  const closeAdmin = () => admin.forEach((client) => client.disconnect());
  try {
    const ids = await Promise.all(admin.map((c) => c.call('CLUSTER', 'MYID') as Promise<string>));
    const perMaster = Math.ceil(16_384 / masters);
    await Promise.all(
      admin.slice(0, masters).map(async (client, i) => {
        const first = i * perMaster;
        const last = Math.min(16_383, first + perMaster - 1);
        await client.call('CLUSTER', 'ADDSLOTSRANGE', first, last);
        await client.call('CLUSTER', 'SET-CONFIG-EPOCH', i + 1);
      }),
    );
    await Promise.all(
      servers
        .slice(1)
        .map((server, i) =>
          admin[0]!.call('CLUSTER', 'MEET', '127.0.0.1', server.port, busPorts[i + 1]!),
        ),
    );
    await until('every node to know the others', async () => {
      const views = await Promise.all(
        admin.map((c) => c.call('CLUSTER', 'NODES') as Promise<string>),
      );
      return views.every((view) => view.trim().split('\n').length === servers.length);
    });
    await Promise.all(
      admin.slice(masters).map((client, i) => client.call('CLUSTER', 'REPLICATE', ids[i]!)),
    );
    await until('the cluster to be up with replicas in sync', async () => {
      const infos = await Promise.all(
        admin.map((c) => c.call('CLUSTER', 'INFO') as Promise<string>),
      );
      const synced = await Promise.all(admin.slice(masters).map((c) => c.info('replication')));
      return (
        infos.every((info) => info.includes('cluster_state:ok')) &&
        synced.every((info) => info.includes('master_link_status:up'))
      );
    });
  } finally {
    closeAdmin();
  }
  const nodes = servers.map((s) => ({ host: s.host, port: s.port }));
  return {
    name: `cluster of ${masters} masters and ${masters} replicas`,
    connection: { cluster: { nodes } },
    async failOverMasterOf(key) {
      const alive = servers.filter((s) => s.running);
      const { slot, owner } = await ask(alive[0]!.port, async (client) => {
        const keySlot = Number(await client.call('CLUSTER', 'KEYSLOT', key));
        return { slot: keySlot, owner: await masterOfSlot(client, keySlot) };
      });
      const victim = servers.find((s) => s.port === owner)!;
      await victim.kill();
      // stores made from now on are given the nodes that are up, as an operator would list them:
      // a connecting ioredis Cluster asks its start-up nodes for the slots in random order, and
      // one that refuses leaves ioredis's disconnect timer (the store's commandTimeoutMs, 5 s
      // here) running for a socket already gone, which held the jest worker past the file's end
      nodes.splice(
        nodes.findIndex((node) => node.port === victim.port),
        1,
      );
      const witness = alive.find((s) => s !== victim)!;
      await until(
        `a replica to take over slot ${slot}`,
        () =>
          ask(witness.port, async (client) => {
            const port = await masterOfSlot(client, slot);
            const info = (await client.call('CLUSTER', 'INFO')) as string;
            return port !== owner && info.includes('cluster_state:ok');
          }),
        FAILOVER_TIMEOUT_MS,
      );
      return victim;
    },
    async stop() {
      await Promise.all(servers.map((server) => server.stop()));
    },
  };
}

async function masterOfSlot(client: Redis, slot: number): Promise<number> {
  const ranges = (await client.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
  const range = ranges.find(([first, last]) => first <= slot && slot <= last);
  if (!range) throw new Error(`no node serves slot ${slot}`);
  return Number(range[2][1]);
}

/** A master, one replica and three sentinels watching them as `mymaster`. */
export async function startRedisSentinelGroup(): Promise<RedisTopologyUnderTest> {
  const replication = ['--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0'];
  const master = await startRedisServer({ args: replication });
  const replica = await startRedisServer({
    args: [...replication, '--replicaof', '127.0.0.1', String(master.port)],
  });
  const config = [
    `sentinel monitor mymaster 127.0.0.1 ${master.port} 2`,
    'sentinel down-after-milliseconds mymaster 1000',
    'sentinel failover-timeout mymaster 3000',
    'sentinel parallel-syncs mymaster 1',
    '',
  ].join('\n');
  const sentinels = await Promise.all(
    Array.from({ length: 3 }, () => startRedisServer({ sentinelConfig: config })),
  );
  const servers = [master, replica];
  const masterPort = () =>
    ask(sentinels[0]!.port, async (client) =>
      Number(
        ((await client.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', 'mymaster')) as string[])[1],
      ),
    );
  try {
    await until('the replica in sync and known to every sentinel', async () => {
      const info = await ask(replica.port, (client) => client.info('replication'));
      const known = await Promise.all(
        sentinels.map((s) =>
          ask(s.port, async (client) => {
            const replicas = (await client.call('SENTINEL', 'REPLICAS', 'mymaster')) as unknown[];
            const others = (await client.call('SENTINEL', 'SENTINELS', 'mymaster')) as unknown[];
            return replicas.length === 1 && others.length === 2;
          }),
        ),
      );
      return info.includes('master_link_status:up') && known.every(Boolean);
    });
  } catch (error) {
    await Promise.all([...servers, ...sentinels].map((s) => s.stop()));
    throw error;
  }
  return {
    name: 'master, replica and three sentinels',
    connection: {
      sentinel: {
        name: 'mymaster',
        sentinels: sentinels.map((s) => ({ host: s.host, port: s.port })),
      },
    },
    async failOverMasterOf() {
      const before = await masterPort();
      const victim = servers.find((s) => s.port === before)!;
      await victim.kill();
      await until(
        'the sentinels to promote the replica',
        async () => {
          const now = await masterPort();
          if (now === before) return false;
          const role = await ask(now, (client) => client.call('ROLE') as Promise<string[]>);
          return role[0] === 'master';
        },
        FAILOVER_TIMEOUT_MS,
      );
      return victim;
    },
    async stop() {
      await Promise.all([...sentinels, ...servers].map((s) => s.stop()));
    },
  };
}

/** One short-lived connection that never retries, closed after `use`. */
async function ask<T>(port: number, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(port, '127.0.0.1', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}

/** Polls an asynchronous check (errors count as "not yet") every 20 ms. */
async function until(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
