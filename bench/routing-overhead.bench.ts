/**
 * What routing costs per call: `model.chat()` on an instant in-process model, against the same
 * call through RoutingChatModel (a function router) → ModelRouter(FailoverStrategy) → the model,
 * and through ModelRouter alone. All figures come from one run, so the ratios compare like with
 * like on this machine.
 *
 *   npx tsc -p tsconfig.bench.json && node build/bench/run.js routing-overhead
 */
import type { ChatModel } from '../src/core/chat/chat-model.js';
import { userMessage } from '../src/core/chat/messages.js';
import type { ChatRequest } from '../src/core/chat/request.js';
import type { ChatResponse } from '../src/core/chat/response.js';
import { ChatModelRoutingResult } from '../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../src/core/group/model-router.js';
import { limitConcurrency } from '../src/core/limits/concurrency-gate.js';
import { InMemoryRouteStateStore } from '../src/core/state/in-memory-route-state-store.js';
import { measure, measureInterleaved, median, printTable, ratio, us } from './lib/measure.js';

const request: ChatRequest = { messages: [userMessage('How long is a piece of string?')] };
const response: ChatResponse = {
  aiMessage: { role: 'assistant', text: 'Twice half its length.' },
  tokenUsage: { inputTokens: 8, outputTokens: 5, totalTokens: 13 },
};

export async function run(): Promise<void> {
  const instant: ChatModel = { chat: async () => response };
  const group = new ModelRouter({
    routes: [{ name: 'instant', model: instant }],
    routingStrategy: new FailoverStrategy(),
  });
  const routing = new RoutingChatModel({
    routes: [
      {
        name: 'a',
        model: new ModelRouter({
          routes: [{ name: 'instant', model: instant }],
          routingStrategy: new FailoverStrategy(),
        }),
      },
    ],
    router: () => ChatModelRoutingResult.route('a'),
    defaultRoute: 'a',
  });

  // sanity: every path answers with the model's text
  for (const model of [instant, group, routing]) {
    const answer = await model.chat(request);
    if (answer.aiMessage.text !== response.aiMessage.text) throw new Error('unexpected answer');
  }

  // everything of issue 27 configured: hedging, the sliding breaker with a slow-call rule, an
  // adaptive concurrency limit (instant answers: no hedge ever fires, as in most calls); and each
  // of them alone, to see what each costs
  const tailGroup = tailOptionsGroup({ window: true, hedge: true, adaptive: true });
  const windowGroup = tailOptionsGroup({ window: true });
  const hedgeGroup = tailOptionsGroup({ hedge: true });
  const adaptiveGroup = tailOptionsGroup({ adaptive: true });
  for (const model of [tailGroup, windowGroup, hedgeGroup, adaptiveGroup]) {
    if ((await model.chat(request)).aiMessage.text !== response.aiMessage.text) {
      throw new Error('unexpected answer');
    }
  }

  // the same group bound to a state store, as the module binds it: the hedge's bucket and
  // sketch are shared (counted locally, merged with the store in the background)
  const sharedLimited: ChatModel = { chat: async () => response };
  limitConcurrency(sharedLimited, { adaptive: true, max: 1_000 });
  const sharedTailGroup = new ModelRouter({
    routes: [{ name: 'instant', model: sharedLimited }],
    routingStrategy: new FailoverStrategy({
      failureRateThreshold: 0.5,
      slowCallRateThreshold: 0.5,
      window: { calls: 100 },
    }),
    hedge: { after: 'p95', maxExtra: 0.1 },
  });
  sharedTailGroup.bindRouteState({ store: new InMemoryRouteStateStore(), scope: 'bench' });

  const direct = await measure('direct', () => instant.chat(request));
  const viaGroup = await measure('ModelRouter', () => group.chat(request));
  const viaRouting = await measure('RoutingChatModel', () => routing.chat(request));
  // the tail options against the plain group, in interleaved rounds (see measureInterleaved)
  const tail = await pairedRounds(
    [group, tailGroup, windowGroup, hedgeGroup, adaptiveGroup, sharedTailGroup].map(
      (model) => () => model.chat(request),
    ),
  );

  // a caller's long-lived signal (a gateway's request): what RoutingChatModel adds over the
  // group it routes to, interleaved (the group races the signal; the routing model need not)
  const signal = new AbortController().signal;
  const withSignal = await pairedRounds([
    () => group.chat(request, { signal }),
    () => routing.chat(request, { signal }),
  ]);

  printTable('Routing overhead per call (instant in-process model, in-memory state)', [
    {
      benchmark: 'RoutingChatModel → ModelRouter(FailoverStrategy) → model',
      figure: us(viaRouting.nsPerOp),
      baseline: `${us(direct.nsPerOp)} direct model.chat()`,
      ratio: ratio(viaRouting.nsPerOp, direct.nsPerOp),
    },
    {
      benchmark: '… overhead per call',
      figure: us(viaRouting.nsPerOp - direct.nsPerOp),
      baseline: 'target < 10 µs',
      ratio: '–',
    },
    {
      benchmark: 'ModelRouter(FailoverStrategy) → model',
      figure: us(viaGroup.nsPerOp),
      baseline: `${us(direct.nsPerOp)} direct model.chat()`,
      ratio: ratio(viaGroup.nsPerOp, direct.nsPerOp),
    },
    {
      benchmark: '… overhead per call',
      figure: us(viaGroup.nsPerOp - direct.nsPerOp),
      baseline: '–',
      ratio: '–',
    },
  ]);

  printTable("With a caller's signal (CPU time per call, interleaved rounds, same run)", [
    {
      benchmark: 'RoutingChatModel → ModelRouter(FailoverStrategy) → model, with a signal',
      figure: us(withSignal.cpuNsPerOp[1]!),
      baseline: `${us(withSignal.cpuNsPerOp[0]!)} ModelRouter(FailoverStrategy) with it`,
      ratio: `${withSignal.cpuRatios[1]!.toFixed(2)}×`,
    },
  ]);

  const [plainCpu, ...withOptions] = tail.cpuNsPerOp as [number, ...number[]];
  const [, ...ratios] = tail.cpuRatios;
  printTable(
    'Routing overhead of the tail options (CPU time per call, interleaved rounds, same run; ' +
      'ratio: median of the rounds’ own ratios)',
    [
      'ModelRouter + hedge p95, sliding breaker, adaptive concurrency → model',
      '… the sliding breaker alone (count window, failure and slow-call rates)',
      '… hedge p95 alone',
      '… adaptive concurrency alone',
      '… every option, bound to a state store as the module binds it (hedge state shared)',
    ].map((benchmark, index) => ({
      benchmark,
      figure: us(withOptions[index]!),
      baseline: `${us(plainCpu)} ModelRouter(FailoverStrategy) without them`,
      ratio: `${ratios[index]!.toFixed(2)}×`,
    })),
  );
  console.log(
    `\nMedians of the rounds: ${ratio(withOptions[0]!, plainCpu)} CPU with every tail option ` +
      `(${ratio(withOptions[4]!, plainCpu)} bound to a store); wall-clock ` +
      `${us(tail.nsPerOp[1]!)} with every tail option, ${us(tail.nsPerOp[0]!)} without ` +
      `(${ratio(tail.nsPerOp[1]!, tail.nsPerOp[0]!)}; target ≤ 1.3×).`,
  );
}

/**
 * measureInterleaved one round at a time, keeping each round's figures: the ratio of a variant
 * to the first is taken within each round (the variants ran within a fraction of a second of
 * each other) and its median reported, so a machine that other work slows down for a while moves
 * both sides of a ratio alike. The medians per variant are kept too.
 */
async function pairedRounds(fns: (() => unknown)[], rounds = 15) {
  const cpu: number[][] = fns.map(() => []);
  const wall: number[][] = fns.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const one = await measureInterleaved(fns, { rounds: 1, warmup: round === 0 ? 5_000 : 0 });
    fns.forEach((_, index) => {
      cpu[index]!.push(one.cpuNsPerOp[index]!);
      wall[index]!.push(one.nsPerOp[index]!);
    });
  }
  return {
    cpuNsPerOp: cpu.map(median),
    nsPerOp: wall.map(median),
    cpuRatios: cpu.map((values) => median(values.map((ns, round) => ns / cpu[0]![round]!))),
  };
}

/** A one-model group with the chosen tail options (each model has its own concurrency limit). */
function tailOptionsGroup(options: { window?: boolean; hedge?: boolean; adaptive?: boolean }) {
  const model: ChatModel = { chat: async () => response };
  if (options.adaptive) limitConcurrency(model, { adaptive: true, max: 1_000 });
  return new ModelRouter({
    routes: [{ name: 'instant', model }],
    routingStrategy: new FailoverStrategy(
      options.window
        ? { failureRateThreshold: 0.5, slowCallRateThreshold: 0.5, window: { calls: 100 } }
        : {},
    ),
    ...(options.hedge ? { hedge: { after: 'p95' as const, maxExtra: 0.1 } } : {}),
  });
}
