import { describe, expect, it } from '@jest/globals';
import { Cluster, Redis } from 'ioredis';
import { userMessage } from '../../../src/core/chat/messages.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { BudgetLedger } from '../../../src/core/budget/budget-ledger.js';
import { RedisRouteStateStore } from '../../../src/redis/redis-route-state-store.js';
import { waitFor, waitForAsync, type TopologyStores } from './redis-fixtures.js';
import { replica } from './shared-state-suite.js';

const MINUTE = 60_000;
const quiet = { warn: () => undefined };
const PRICE = 0.000137; // of one answer (17 + 40 tokens at 1 + 3 USD / M)

/** A raw client on the topology, to read what Redis holds. */
function rawClient(env: TopologyStores): Redis {
  const { cluster, sentinel } = env.topology.connection;
  const raw = cluster
    ? (new Cluster(cluster.nodes) as unknown as Redis)
    : new Redis({ sentinels: sentinel!.sentinels, name: sentinel!.name });
  raw.on('error', () => undefined); // the failover makes it reconnect; the test asks again
  return raw;
}

/** The keys under `pattern` on every master. */
async function keysOf(raw: Redis, pattern: string): Promise<string[]> {
  await raw.ping(); // a cluster knows its nodes once ready
  const cluster = raw as unknown as Cluster;
  const nodes: Redis[] = cluster.isCluster ? cluster.nodes('master') : [raw];
  const found = await Promise.all(nodes.map((node) => node.keys(pattern)));
  return found.flat();
}

/**
 * A master fails during load (Sentinel promotes the replica; a cluster master's replica takes
 * over): every call is still answered (from local state while Redis is away), sharing resumes,
 * and afterwards Redis holds exactly what both replicas counted.
 */
export function describeFailover(topology: string, env: TopologyStores): void {
  describe(`a master failing over under load (${topology})`, () => {
    it('serves every call, then holds rpm and spend exactly again', async () => {
      let now = MINUTE * 30_000_000 + 10_000;
      const clock = () => now;
      const fast = { clock, commandTimeoutMs: 500, maxReconnectDelayMs: 100 };
      const stores = [await env.stores.open(fast), await env.stores.open(fast)];
      const budgets = [{ name: 'all', limitUsd: 100, period: '1d' as const }];
      const ledgers = stores.map((store) => new BudgetLedger(budgets, { store, clock }));
      const replicas = stores.map((store, i) => replica(store, ledgers[i]!, clock));
      const call = (i: number): Promise<ChatResponse> =>
        replicas[i % 2]!.router.chat({ messages: [userMessage('hi')] });
      const servedLimited = () => replicas[0]!.served.limited + replicas[1]!.served.limited;

      const wentLocal: string[] = [];
      stores.forEach((store) =>
        store.onStatusChange((event) => {
          if (event.status === 'local-only') wentLocal.push(event.reason ?? '');
        }),
      );
      for (let i = 0; i < 20; i++) await call(i);
      expect(servedLimited()).toBe(20);

      const raw = rawClient(env);
      try {
        const prefix = env.stores.prefix;
        // the master that holds the rpm window is the one to fail
        const windows = await keysOf(raw, `${prefix}window:*`);
        const rpmKey = windows.find((key) => key.includes('rpm') && !key.endsWith(':by'));
        expect({ rpmKey, windows }).toEqual({ rpmKey: expect.any(String), windows });

        const progress = { failedOver: false };
        const failover = env.topology.failOverMasterOf(rpmKey!).finally(() => {
          progress.failedOver = true;
        });
        const during: Promise<ChatResponse>[] = [];
        for (let i = 0; !progress.failedOver; i++) {
          during.push(call(i));
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await failover;
        const answers = await Promise.all(during);
        expect(answers).toHaveLength(during.length);
        // the failure was noticed: the replicas served from local state meanwhile
        expect(wentLocal.length).toBeGreaterThan(0);

        await waitFor(
          'both stores to share again',
          () => stores.every((s) => s.isShared()),
          20_000,
        );
        const calls = 20 + during.length;
        // every replica's whole contribution is back in Redis: its total is what was served
        await waitForAsync(async () => Number(await raw.get(rpmKey!)) === servedLimited(), 10_000);
        await waitFor(
          'both replicas to see the exact spend',
          () => ledgers.every((ledger) => Math.abs(ledger.spentUsd('all') - calls * PRICE) < 1e-9),
          10_000,
        );

        // the next minute holds its limit exactly again
        now += MINUTE;
        const before = servedLimited();
        await Promise.all(Array.from({ length: 200 }, (_, i) => call(i)));
        expect(servedLimited() - before).toBe(37);
      } finally {
        raw.disconnect();
      }
    });
  });
}

/** A store built from the caller's own ioredis client (a `Cluster`, or a `Redis` on sentinels). */
export function describeClientStore(topology: string, env: TopologyStores): void {
  describe(`a store built from an ioredis client (${topology})`, () => {
    it('shares with a store built from options, and leaves the client alone', async () => {
      const { cluster, sentinel } = env.topology.connection;
      const client = cluster
        ? (new Cluster(cluster.nodes, { lazyConnect: true }) as unknown as Redis)
        : new Redis({ lazyConnect: true, sentinels: sentinel!.sentinels, name: sentinel!.name });
      const fromClient = env.stores.adopt(
        new RedisRouteStateStore({ client, keyPrefix: env.stores.prefix, logger: quiet }),
      );
      await fromClient.connect();
      const fromOptions = await env.stores.open();
      expect(fromClient.isShared()).toBe(true);
      expect(fromClient.describe().url).toMatch(
        cluster ? /^redis-cluster:\/\// : /^redis-sentinel:/,
      );

      await fromClient.setSticky('conversation-9', { model: 'm9' }, MINUTE);
      await waitFor('the sticky through the other store', () =>
        fromOptions.getSticky('conversation-9'),
      );
      expect(client.status).toBe('wait'); // the caller's client never connected
    });
  });
}
