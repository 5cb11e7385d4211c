/**
 * The Redis route state store against the in-memory store, in one run: the store's hot path per
 * call (µs per operation and the ratio), and how long a circuit change on one instance takes to
 * reach another (median and max over 50 changes). Starts its own redis-server on a free loopback
 * port (skipped, with a message, when redis-server is not installed).
 *
 *   npx tsc -p tsconfig.bench.json && node -e "import('./build/bench/redis-store.bench.js').then(m=>m.run())"
 */
import { performance } from 'node:perf_hooks';
import type { ChatModel } from '../src/core/chat/chat-model.js';
import { userMessage } from '../src/core/chat/messages.js';
import { InMemoryRouteStateStore } from '../src/core/state/in-memory-route-state-store.js';
import { FailoverStrategy } from '../src/core/strategies/failover-strategy.js';
import { LowestTokenUsageRoutingStrategy } from '../src/core/strategies/lowest-token-usage-routing-strategy.js';
import { ModelRouter } from '../src/core/group/model-router.js';
import type { CircuitRecord, RouteStateStore } from '../src/core/state/route-state-store.js';
import { RedisRouteStateStore } from '../src/redis/redis-route-state-store.js';
import { isRedisServerAvailable, startRedisServer } from '../test/support/redis-server.js';
import { measure, printTable, ratio, us, type Row } from './lib/measure.js';

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

/** A model that answers at once, so only the routing and the store are measured. */
const instant: ChatModel = {
  chat: () =>
    Promise.resolve({
      aiMessage: { role: 'assistant', text: 'ok' },
      tokenUsage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 },
    }),
};
const benchRequest = { messages: [userMessage('hello')] };

/** A model group routed over `store`: what a call through the module costs with it. */
function routedCall(
  store: RouteStateStore,
  strategy: FailoverStrategy | LowestTokenUsageRoutingStrategy,
  scope: string,
): () => Promise<unknown> {
  const router = new ModelRouter({
    routes: [
      { name: 'm1', model: instant },
      { name: 'm2', model: instant },
    ],
    routingStrategy: strategy,
  });
  router.bindRouteState({ store, scope });
  return () => router.chat(benchRequest);
}

/** Milliseconds from A's compare-and-set call until B's listener hears of it. */
async function propagationDelays(
  a: RedisRouteStateStore,
  b: RedisRouteStateStore,
  changes: number,
): Promise<number[]> {
  let waiting: { version: number; resolve: (at: number) => void } | undefined;
  let heard = 0;
  const stopListening = b.onCircuitChange((key, record) => {
    if (key !== 'bench/propagation') return;
    heard = Math.max(heard, record.version);
    if (waiting && record.version >= waiting.version) waiting.resolve(performance.now());
  });
  const delays: number[] = [];
  for (let i = 0; i < changes; i++) {
    const current = a.getCircuit('bench/propagation');
    const next: Omit<CircuitRecord, 'version'> = {
      ...current,
      state: current.state === 'open' ? 'closed' : 'open',
      failures: current.failures + 1,
    };
    const sentAt = performance.now();
    const result = await a.compareAndSetCircuit('bench/propagation', current, next);
    if (!result.ok || !a.isShared()) {
      throw new Error(`the store stopped sharing: ${a.describe().lastError ?? 'conflict'}`);
    }
    const arrivedAt =
      heard >= result.record.version
        ? performance.now()
        : await new Promise<number>((resolve) => {
            waiting = { version: result.record.version, resolve };
          });
    delays.push(arrivedAt - sentAt);
    waiting = undefined;
  }
  stopListening();
  return delays.toSorted((x, y) => x - y);
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
