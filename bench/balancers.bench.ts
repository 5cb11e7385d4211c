/**
 * The balancers and checks, each beside a baseline from the same run:
 *  - overhead per call of each balancer (inside FailoverStrategy, three instant models) against
 *    `ordered`, and of the checks (context window + rpm on every model) against none;
 *  - `weighted` 5:3:2 over 10,000 calls: the largest share error, against a seeded random
 *    weighted choice;
 *  - `lowest-latency` with a model 3× faster than its peer (fake clock): its share, against
 *    round-robin; after the slower model becomes the faster, how many calls until it wins;
 *  - `rpm` across two replicas on one Redis: calls served by the limited model, against two
 *    replicas that count alone (in-memory stores).
 *
 *   npm run bench -- balancers
 */
import type { ChatModel } from '../src/core/chat/chat-model.js';
import { userMessage } from '../src/core/chat/messages.js';
import type { ChatResponse } from '../src/core/chat/response.js';
import { MODEL_PROFILE, type ModelProfile } from '../src/core/cost/model-profile.js';
import { wrapModel, type ChatModelWrapper } from '../src/core/chat/chat-model-wrapper.js';
import { ModelRouter } from '../src/core/group/model-router.js';
import { InMemoryRouteStateStore } from '../src/core/state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../src/core/state/route-state-store.js';
import { BALANCERS, type BalancerName } from '../src/core/strategies/balancers/balancer.js';
import { createBalancer } from '../src/core/strategies/balancers/create-balancer.js';
import { LowestLatencyBalancer } from '../src/core/strategies/balancers/lowest-latency-balancer.js';
import { WeightedBalancer } from '../src/core/strategies/balancers/weighted-balancer.js';
import { FailoverStrategy } from '../src/core/strategies/failover-strategy.js';
import { RedisRouteStateStore } from '../src/redis/redis-route-state-store.js';
import { isRedisServerAvailable, startRedisServer } from '../test/support/redis-server.js';
import { seededRandom } from './lib/seeded-random.js';
import { measure, printTable, ratio, us, type Row } from './lib/measure.js';

const request = { messages: [userMessage('How long is a piece of string?')] };
const response: ChatResponse = {
  aiMessage: { role: 'assistant', text: 'Twice half its length.' },
  tokenUsage: { inputTokens: 8, outputTokens: 5, totalTokens: 13 },
};
const instant: ChatModel = { chat: async () => response };

function group(balancer: BalancerName | undefined, profile: ModelProfile = {}): ModelRouter {
  const delegate = balancer === undefined ? undefined : createBalancer(balancer);
  return new ModelRouter({
    routes: ['a', 'b', 'c'].map((name, i) => ({
      name,
      model: instant,
      metadata: [
        [MODEL_PROFILE, { ...profile, weight: i + 1, pricing: { input: i + 1, output: 2 } }],
      ],
    })),
    routingStrategy: new FailoverStrategy(delegate ? { delegate } : {}),
  });
}

async function overheadRows(): Promise<Row[]> {
  const ordered = group('ordered');
  const base = await measure('ordered', () => ordered.chat(request));
  const rows: Row[] = [];
  for (const name of BALANCERS.filter((b) => b !== 'ordered')) {
    const routed = group(name);
    const m = await measure(name, () => routed.chat(request));
    rows.push({
      benchmark: `ModelRouter(FailoverStrategy + ${name})`,
      figure: us(m.nsPerOp),
      baseline: `${us(base.nsPerOp)} ordered`,
      ratio: ratio(m.nsPerOp, base.nsPerOp),
    });
  }
  const checked = group('ordered', { contextWindow: 128_000, limits: { rpm: 1e12, tpm: 1e15 } });
  const m = await measure('checks', () => checked.chat(request));
  rows.push({
    benchmark: 'ordered + checks (context window, rpm, tpm on every model)',
    figure: us(m.nsPerOp),
    baseline: `${us(base.nsPerOp)} ordered, no checks`,
    ratio: ratio(m.nsPerOp, base.nsPerOp),
  });
  return rows;
}

function weightedRow(): Row {
  const weights = [5, 3, 2];
  const models = weights.map((weight, i) =>
    wrapModel(`m${i}`, instant, [[MODEL_PROFILE, { weight }]]),
  );
  const balancer = new WeightedBalancer();
  const random = seededRandom(42);
  const smooth = [0, 0, 0];
  const drawn = [0, 0, 0];
  const n = 10_000;
  for (let i = 0; i < n; i++) {
    const picked = balancer.route(models, request) as ChatModelWrapper;
    smooth[models.indexOf(picked)]! += 1;
    const r = random() * 10;
    drawn[r < 5 ? 0 : r < 8 ? 1 : 2]! += 1;
  }
  const error = (counts: number[]) =>
    Math.max(...counts.map((count, i) => Math.abs(count / n - weights[i]! / 10)));
  return {
    benchmark: '`weighted` 5:3:2, largest share error over 10,000 calls',
    figure: `${(error(smooth) * 100).toFixed(3)} %`,
    baseline: `${(error(drawn) * 100).toFixed(3)} % seeded random weighted choice`,
    ratio: ratio(error(smooth) + 1e-9, error(drawn)),
  };
}

function latencyRows(): Row[] {
  let now = 1_000_000;
  const balancer = new LowestLatencyBalancer({ clock: () => now });
  const models = [wrapModel('peer', instant), wrapModel('fast', instant)];
  const latency: Record<string, number> = { peer: 300, fast: 100 };
  const call = () => {
    const context = { attributes: {}, attempt: 1 };
    const model = balancer.route(models, request, context) as ChatModelWrapper;
    now += latency[model.name]!;
    balancer.onSuccess(model, response, request, context);
    return model.name;
  };
  let fast = 0;
  for (let i = 0; i < 10_000; i++) if (call() === 'fast') fast += 1;
  // the peer recovers: now 3× faster than 'fast'
  latency.peer = 33;
  let found = -1;
  const recent: string[] = [];
  for (let i = 1; i <= 1000 && found < 0; i++) {
    recent.push(call());
    // found: the peer takes 9 of the last 10 calls
    if (recent.slice(-10).filter((m) => m === 'peer').length >= 9) found = i;
  }
  return [
    {
      benchmark: '`lowest-latency`: share of a model 3× faster than its peer (10,000 calls)',
      figure: `${((fast / 10_000) * 100).toFixed(1)} %`,
      baseline: '50.0 % round-robin',
      ratio: ratio(fast / 10_000, 0.5),
    },
    {
      benchmark: '`lowest-latency`: calls until a recovered model (now 3× faster) takes 9 of 10',
      figure: String(found),
      baseline: '200 calls (target)',
      ratio: ratio(found, 200),
    },
  ];
}

async function rpmRow(): Promise<Row | undefined> {
  if (!isRedisServerAvailable()) return undefined;
  const server = await startRedisServer();
  const quiet = { warn: () => undefined };
  const now = 60_000 * 30_000_000 + 10_000;
  const clock = () => now;
  const served = async (stores: RouteStateStore[]) => {
    let limited = 0;
    const routers = stores.map((store) => {
      const router = new ModelRouter({
        routes: [
          {
            name: 'limited',
            model: { chat: async () => ((limited += 1), response) },
            metadata: [[MODEL_PROFILE, { limits: { rpm: 100 } }]],
          },
          { name: 'spare', model: instant },
        ],
        routingStrategy: new FailoverStrategy({ clock }),
      });
      router.bindRouteState({ store, scope: 'bench', clock });
      return router;
    });
    await Promise.all(Array.from({ length: 1000 }, (_, i) => routers[i % 2]!.chat(request)));
    return limited;
  };
  try {
    const redis = await Promise.all(
      [0, 1].map(() =>
        RedisRouteStateStore.connect({
          url: server.url,
          keyPrefix: 'bench-rpm:',
          logger: quiet,
          clock,
        }),
      ),
    );
    const shared = await served(redis);
    const alone = await served([
      new InMemoryRouteStateStore(clock),
      new InMemoryRouteStateStore(clock),
    ]);
    await Promise.all(redis.map((store) => store.close()));
    return {
      benchmark:
        '`rpm: 100` across two replicas, 1,000 concurrent calls: served by the limited model',
      figure: String(shared),
      baseline: `${alone} two replicas counting alone`,
      ratio: ratio(shared, alone),
    };
  } finally {
    await server.stop();
  }
}

export async function run(): Promise<void> {
  const rows = await overheadRows();
  rows.push(weightedRow(), ...latencyRows());
  const rpm = await rpmRow();
  if (rpm) rows.push(rpm);
  printTable(
    'Balancers and checks (instant in-process models, in-memory state unless noted)',
    rows,
  );
}
