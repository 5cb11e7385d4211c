/**
 * Tail latency and overload against the project's FakeProvider on 127.0.0.1, over the real HTTP
 * path (OpenAiCompatibleChatModel + ResilientChatModel):
 *
 * - Heavy tail: 5 % of answers take 2 s, the rest 20 ms (seeded); TAIL_REQUESTS requests at 16
 *   concurrent through a group of two models, with and without `hedge: { after: 'p95',
 *   maxExtra: 0.1 }`: p50, p99, p99/p50 and extra provider calls.
 * - Overload: a provider that answers 429 above 8 concurrent chat calls (20 ms each), driven at
 *   32 concurrent: two ideal clients that know the limit (`concurrency: { max: 8 }` and a short
 *   queue; 8 callers), a client with the default retries, and `concurrency: { adaptive: true }`
 *   (and the same queue): the share of provider answers that are 429 and throughput against the
 *   faster ideal client of the same round (median of the rounds, and their range).
 *
 *   npm run bench -- tail      (TAIL_REQUESTS=500 OVERLOAD_ROUNDS=1 for a quicker run)
 */
import { userMessage } from '../src/core/chat/messages.js';
import type { ChatModel } from '../src/core/chat/chat-model.js';
import { ModelRouter } from '../src/core/group/model-router.js';
import type { RoutingEvent } from '../src/core/observability/routing-event.js';
import { withResilience } from '../src/core/resilience/resilient-chat-model.js';
import type { ConcurrencyOptions } from '../src/core/limits/aimd-limit.js';
import { limitConcurrency } from '../src/core/limits/concurrency-gate.js';
import { FailoverStrategy } from '../src/core/strategies/failover-strategy.js';
import { OpenAiCompatibleChatModel } from '../src/providers/openai/openai-compatible-chat-model.js';
import { FakeProvider } from '../src/testing/index.js';
import { printTable, ratio } from './lib/measure.js';
import { seededRandom } from './lib/seeded-random.js';

const API_KEY = 'sk-bench-tail-0000000000';
const request = { messages: [userMessage('How long is a piece of string?')] };
const TAIL_REQUESTS = Number(process.env.TAIL_REQUESTS ?? 2_000);
const OVERLOAD_REQUESTS = Number(process.env.OVERLOAD_REQUESTS ?? 1_000);
const OVERLOAD_ROUNDS = Number(process.env.OVERLOAD_ROUNDS ?? 5);

export async function run(): Promise<void> {
  await heavyTail();
  await overload();
}

function providerModel(provider: FakeProvider, name: string, retries = 1): ChatModel {
  return withResilience(
    new OpenAiCompatibleChatModel({
      baseURL: provider.openaiBaseURL,
      apiKey: API_KEY,
      model: name,
    }),
    { name, retry: { maxAttempts: retries } },
  );
}

/** Runs `total` calls, `concurrency` at a time; returns each call's latency (ms) and the wall time. */
async function drive(total: number, concurrency: number, call: () => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next += 1;
      const at = performance.now();
      try {
        await call();
        latencies.push(performance.now() - at);
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, failed, wallMs: performance.now() - started };
}

function percentile(values: number[], q: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

async function heavyTail(): Promise<void> {
  const rows = [];
  for (const hedged of [false, true]) {
    const random = seededRandom(27);
    const provider = await FakeProvider.start({
      apiKey: API_KEY,
      answerDelayMs: () => (random() < 0.05 ? 2_000 : 20),
    });
    try {
      let hedges = 0;
      const observer = (event: RoutingEvent) => {
        if (event.type === 'hedge-fired') hedges += 1;
      };
      const group = new ModelRouter({
        routes: [
          { name: 'a', model: providerModel(provider, 'tail-a') },
          { name: 'b', model: providerModel(provider, 'tail-b') },
        ],
        routingStrategy: new FailoverStrategy(),
        ...(hedged ? { hedge: { after: 'p95' as const, maxExtra: 0.1 } } : {}),
      });
      const result = await drive(TAIL_REQUESTS, 16, () => group.chat(request, { observer }));
      const p50 = percentile(result.latencies, 0.5);
      const p99 = percentile(result.latencies, 0.99);
      const calls = provider.requests.count();
      rows.push({
        benchmark: hedged ? "hedge { after: 'p95', maxExtra: 0.1 }" : 'no hedging',
        figure: `p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, ${result.failed} failed`,
        baseline: `extra provider calls ${(((calls - TAIL_REQUESTS) / TAIL_REQUESTS) * 100).toFixed(1)} % (${hedges} hedges)`,
        ratio: `p99/p50 ${ratio(p99, p50)}`,
      });
    } finally {
      await provider.close();
    }
  }
  printTable(
    `Heavy tail: 5 % of answers at 2 s, the rest 20 ms; ${TAIL_REQUESTS} requests at 16 concurrent`,
    rows,
  );
}

interface OverloadVariant {
  name: string;
  callers: number;
  concurrency?: ConcurrencyOptions;
}

/** One pass of a variant against a fresh provider that refuses calls over 8 in flight. */
async function overloadPass(variant: OverloadVariant) {
  const provider = await FakeProvider.start({
    apiKey: API_KEY,
    answerDelayMs: () => 20,
    maxConcurrent: 8,
  });
  try {
    const model = providerModel(provider, 'busy', 3);
    if (variant.concurrency) limitConcurrency(model, variant.concurrency);
    const group = new ModelRouter({
      routes: [{ name: 'busy', model }],
      // a 429 is the provider's back-pressure: the bench keeps the model in the group throughout
      routingStrategy: new FailoverStrategy({ cooldownMs: 0 }),
    });
    const result = await drive(OVERLOAD_REQUESTS, variant.callers, () => group.chat(request));
    const { served, refused } = provider.load;
    return {
      okPerS: (result.latencies.length / result.wallMs) * 1000,
      served,
      refused,
      failed: result.failed,
    };
  } finally {
    await provider.close();
  }
}

/**
 * The variants run in turn, OVERLOAD_ROUNDS times (the order rotating), and each is compared with
 * the faster of the two ideal clients of the same round: on a machine shared with other work,
 * throughput drifts between runs far more than between two variants run seconds apart.
 */
async function overload(): Promise<void> {
  const queue = { queueMs: 10_000, queueSize: 64 };
  const variants: OverloadVariant[] = [
    {
      name: 'ideal client (knows the limit: max 8)',
      callers: 32,
      concurrency: { max: 8, ...queue },
    },
    { name: 'ideal client (holds itself to 8 callers)', callers: 8 },
    { name: 'default retries', callers: 32 },
    {
      name: 'adaptive concurrency',
      callers: 32,
      concurrency: { adaptive: true, max: 64, ...queue },
    },
  ];
  const passes = variants.map(() => [] as Awaited<ReturnType<typeof overloadPass>>[]);
  for (let round = 0; round < OVERLOAD_ROUNDS; round += 1) {
    for (let step = 0; step < variants.length; step += 1) {
      const index = (step + round) % variants.length;
      passes[index]!.push(await overloadPass(variants[index]!));
    }
  }
  // the faster of the two clients that know the limit, round by round: the stricter baseline
  const ideal = passes[0]!.map((pass, round) => Math.max(pass.okPerS, passes[1]![round]!.okPerS));
  printTable(
    `Overload: 429 above 8 concurrent (20 ms answers), ${OVERLOAD_REQUESTS} requests driven at 32 concurrent, ${OVERLOAD_ROUNDS} rounds`,
    variants.map((variant, index) => {
      const runs = passes[index]!;
      const ratios = runs.map((pass, round) => pass.okPerS / ideal[round]!);
      const ofFixed = median(runs.map((pass, round) => pass.okPerS / passes[0]![round]!.okPerS));
      const served = runs.reduce((sum, pass) => sum + pass.served, 0);
      const refused = runs.reduce((sum, pass) => sum + pass.refused, 0);
      const failed = runs.reduce((sum, pass) => sum + pass.failed, 0);
      return {
        benchmark: variant.name,
        figure: `${runs.map((pass) => pass.okPerS.toFixed(0)).join(' / ')} answers/s, ${failed} failed`,
        baseline: `429: ${((refused / Math.max(1, served + refused)) * 100).toFixed(1)} % of provider answers`,
        ratio: `${median(ratios).toFixed(2)}× of ideal (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}); ${ofFixed.toFixed(2)}× of max 8`,
      };
    }),
  );
}

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
