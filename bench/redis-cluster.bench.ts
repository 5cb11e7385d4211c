/**
 * The Redis route state store on a Redis Cluster (3 masters, 3 replicas) against the same store
 * on one node, in one run: how long a circuit change on one instance takes to reach another,
 * and what a routed call costs (with an rpm limit, whose window add is the one per-call write a
 * call awaits). Starts its own redis-servers on free loopback ports (skipped, with a message,
 * when redis-server is not installed).
 *
 *   npm run bench -- redis-cluster
 */
import { userMessage } from '../src/core/chat/messages.js';
import { MODEL_PROFILE } from '../src/core/cost/model-profile.js';
import { ModelRouter } from '../src/core/group/model-router.js';
import { FailoverStrategy } from '../src/core/strategies/failover-strategy.js';
import { RedisRouteStateStore } from '../src/redis/redis-route-state-store.js';
import type { RedisRouteStateStoreOptions } from '../src/redis/redis-route-state-store-options.js';
import { isRedisServerAvailable, startRedisServer } from '../test/support/redis-server.js';
import { startRedisCluster } from '../test/support/redis-topologies.js';
import { measure, printTable, ratio, us, type Row } from './lib/measure.js';
import { instantModel, propagationDelays } from './lib/store-propagation.js';

const quiet = { warn: () => undefined };
const ms = (value: number) => `${value.toFixed(2)} ms`;

/** A routed call over `store`; with `rpm`, each call awaits one window add in Redis. */
function routedCall(store: RedisRouteStateStore, rpm?: number): () => Promise<unknown> {
  const metadata = rpm === undefined ? [] : [[MODEL_PROFILE, { limits: { rpm } }] as const];
  const router = new ModelRouter({
    routes: [
      { name: 'm1', model: instantModel, metadata: metadata as never },
      { name: 'm2', model: instantModel },
    ],
    routingStrategy: new FailoverStrategy(),
  });
  router.bindRouteState({ store, scope: rpm === undefined ? 'bench-plain' : 'bench-rpm' });
  return () => router.chat({ messages: [userMessage('hello')] });
}

/** Median and max milliseconds from A's compare-and-set until B's listener hears of it. */
async function propagation(
  a: RedisRouteStateStore,
  b: RedisRouteStateStore,
  changes: number,
): Promise<{ median: number; max: number }> {
  const delays = await propagationDelays(a, b, changes);
  return { median: delays[Math.floor(delays.length / 2)]!, max: delays[delays.length - 1]! };
}

async function pair(connection: Partial<RedisRouteStateStoreOptions>) {
  const open = () => RedisRouteStateStore.connect({ ...connection, logger: quiet });
  const stores = [await open(), await open()] as const;
  if (!stores.every((store) => store.isShared())) throw new Error('the stores did not connect');
  return stores;
}

export async function run(): Promise<void> {
  if (!isRedisServerAvailable()) {
    console.log('\n### Redis Cluster route state store\n\nskipped: redis-server is not installed');
    return;
  }
  const [server, cluster] = await Promise.all([startRedisServer(), startRedisCluster(3)]);
  const single = await pair({ url: server.url });
  const clustered = await pair(cluster.connection);
  try {
    await propagation(single[0], single[1], 10); // warm-up
    await propagation(clustered[0], clustered[1], 10);
    const delaySingle = await propagation(single[0], single[1], 100);
    const delayCluster = await propagation(clustered[0], clustered[1], 100);
    const plain = { iterations: 20_000, rounds: 5, warmup: 2_000 };
    const callSingle = await measure('call, one node', routedCall(single[0]), plain);
    const callCluster = await measure('call, cluster', routedCall(clustered[0]), plain);
    const awaited = { iterations: 2_000, rounds: 5, warmup: 500 };
    const rpm = 1e12; // never reached: every call adds to the window and is admitted
    const rpmSingle = await measure('rpm call, one node', routedCall(single[0], rpm), awaited);
    const rpmCluster = await measure('rpm call, cluster', routedCall(clustered[0], rpm), awaited);
    const rows: Row[] = [
      {
        benchmark: 'circuit change A → B, median of 100 (loopback)',
        figure: `${ms(delayCluster.median)} (cluster; max ${ms(delayCluster.max)})`,
        baseline: `${ms(delaySingle.median)} (one node; max ${ms(delaySingle.max)})`,
        ratio: ratio(delayCluster.median, delaySingle.median),
      },
      {
        benchmark: 'ModelRouter.chat, FailoverStrategy, healthy models',
        figure: `${us(callCluster.nsPerOp)} (cluster)`,
        baseline: `${us(callSingle.nsPerOp)} (one node)`,
        ratio: ratio(callCluster.nsPerOp, callSingle.nsPerOp),
      },
      {
        benchmark: 'ModelRouter.chat with an rpm limit (one awaited window add per call)',
        figure: `${us(rpmCluster.nsPerOp)} (cluster)`,
        baseline: `${us(rpmSingle.nsPerOp)} (one node)`,
        ratio: ratio(rpmCluster.nsPerOp, rpmSingle.nsPerOp),
      },
    ];
    printTable('Redis Cluster route state store (3 masters, 3 replicas) vs one node', rows);
  } finally {
    await Promise.all([...single, ...clustered].map((store) => store.close()));
    await Promise.all([server.stop(), cluster.stop()]);
  }
}
