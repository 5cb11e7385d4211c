/**
 * The Redis route state store against the in-memory store, in one run: the store's hot path per
 * call (µs per operation and the ratio), and how long a circuit change on one instance takes to
 * reach another (median and max over 50 changes). Starts its own redis-server on a free loopback
 * port (skipped, with a message, when redis-server is not installed).
 *
 *   npx tsc -p tsconfig.bench.json && node -e "import('./build/bench/redis-store.bench.js').then(m=>m.run())"
 */
import { userMessage } from '../src/core/chat/messages.js';
import { InMemoryRouteStateStore } from '../src/core/state/in-memory-route-state-store.js';
import { FailoverStrategy } from '../src/core/strategies/failover-strategy.js';
import { LowestTokenUsageRoutingStrategy } from '../src/core/strategies/lowest-token-usage-routing-strategy.js';
import { ModelRouter } from '../src/core/group/model-router.js';
import type { RouteStateStore } from '../src/core/state/route-state-store.js';
import { RedisRouteStateStore } from '../src/redis/redis-route-state-store.js';
import { isRedisServerAvailable, startRedisServer } from '../test/support/redis-server.js';
import { measure, printTable, ratio, us, type Row } from './lib/measure.js';
import { instantModel, propagationDelays } from './lib/store-propagation.js';

const quiet = { warn: () => undefined };

/** What every routed call does: read the circuit and the model's usage. */
function readPath(store: RouteStateStore): () => void {
  return () => {
    store.getCircuit('bench/model-a');
    store.getTokens('bench/model-a');
  };
}

/** What a call that changes state does: read, compare-and-set the circuit, count tokens. */
function writePath(store: RouteStateStore): () => Promise<void> {
  return async () => {
    const current = store.getCircuit('bench/model-b');
    await store.compareAndSetCircuit('bench/model-b', current, {
      ...current,
      consecutiveFailures: (current.consecutiveFailures + 1) % 5,
    });
    await store.addTokens('bench/model-b', 100);
  };
}

const benchRequest = { messages: [userMessage('hello')] };

/** A model group routed over `store`: what a call through the module costs with it. */
function routedCall(
  store: RouteStateStore,
  strategy: FailoverStrategy | LowestTokenUsageRoutingStrategy,
  scope: string,
): () => Promise<unknown> {
  const router = new ModelRouter({
    routes: [
      { name: 'm1', model: instantModel },
      { name: 'm2', model: instantModel },
    ],
    routingStrategy: strategy,
  });
  router.bindRouteState({ store, scope });
  return () => router.chat(benchRequest);
}

export async function run(): Promise<void> {
  if (!isRedisServerAvailable()) {
    console.log(
      '\n### Redis route state store\n\nskipped: redis-server is not installed ' +
        '(apt-get install -y redis-server)',
    );
    return;
  }
  const server = await startRedisServer();
  const memory = new InMemoryRouteStateStore();
  const a = await RedisRouteStateStore.connect({ url: server.url, logger: quiet });
  const b = await RedisRouteStateStore.connect({ url: server.url, logger: quiet });
  try {
    if (!a.isShared() || !b.isShared()) throw new Error('the Redis stores did not connect');
    // First, while nothing else loads the process: the bursts below leave work queued behind them.
    await propagationDelays(a, b, 10); // warm-up
    const delays = await propagationDelays(a, b, 50);
    const readMemory = await measure('reads, in-memory', readPath(memory), {
      iterations: 200_000,
    });
    const readRedis = await measure('reads, Redis mirror', readPath(a), { iterations: 200_000 });
    const writeMemory = await measure('writes, in-memory', writePath(memory), {
      iterations: 20_000,
    });
    const writeRedis = await measure('writes, Redis', writePath(a), {
      iterations: 2_000,
      rounds: 5,
      warmup: 500,
    });
    const failoverMemory = await measure(
      'failover, in-memory',
      routedCall(memory, new FailoverStrategy(), 'bench-failover'),
    );
    const failoverRedis = await measure(
      'failover, Redis',
      routedCall(a, new FailoverStrategy(), 'bench-failover'),
    );
    const balancedMemory = await measure(
      'balanced, in-memory',
      routedCall(memory, new LowestTokenUsageRoutingStrategy(), 'bench-balanced'),
    );
    const balancedRedis = await measure(
      'balanced, Redis',
      routedCall(a, new LowestTokenUsageRoutingStrategy(), 'bench-balanced'),
    );
    const median = delays[Math.floor(delays.length / 2)]!;
    const max = delays[delays.length - 1]!;

    const rows: Row[] = [
      {
        benchmark: 'ModelRouter.chat, FailoverStrategy, healthy models',
        figure: `${us(failoverRedis.nsPerOp)} (Redis)`,
        baseline: `${us(failoverMemory.nsPerOp)} (in-memory)`,
        ratio: ratio(failoverRedis.nsPerOp, failoverMemory.nsPerOp),
      },
      {
        benchmark: 'ModelRouter.chat, LowestTokenUsageRoutingStrategy (3 counter updates per call)',
        figure: `${us(balancedRedis.nsPerOp)} (Redis)`,
        baseline: `${us(balancedMemory.nsPerOp)} (in-memory)`,
        ratio: ratio(balancedRedis.nsPerOp, balancedMemory.nsPerOp),
      },
      {
        benchmark: 'hot-path reads per call (getCircuit + getTokens)',
        figure: `${us(readRedis.nsPerOp)} (Redis mirror)`,
        baseline: `${us(readMemory.nsPerOp)} (in-memory)`,
        ratio: ratio(readRedis.nsPerOp, readMemory.nsPerOp),
      },
      {
        benchmark: 'state change per call (getCircuit + compareAndSetCircuit + addTokens)',
        figure: `${us(writeRedis.nsPerOp)} (Redis, 2 round trips)`,
        baseline: `${us(writeMemory.nsPerOp)} (in-memory)`,
        ratio: ratio(writeRedis.nsPerOp, writeMemory.nsPerOp),
      },
      {
        benchmark: 'circuit change A → B (50 changes, loopback Redis)',
        figure: `median ${median.toFixed(2)} ms, max ${max.toFixed(2)} ms`,
        baseline: 'target ≤ 100 ms',
        ratio: `${(max / 100).toFixed(3)} of target (max)`,
      },
    ];
    printTable('Redis route state store', rows);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await server.stop();
  }
}
