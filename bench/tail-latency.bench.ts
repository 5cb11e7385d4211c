/**
 * Tail latency and overload against the project's FakeProvider on 127.0.0.1, over the real HTTP
 * path (OpenAiCompatibleChatModel + ResilientChatModel):
 *
 * - Heavy tail: 5 % of answers take 2 s, the rest 20 ms (seeded); TAIL_REQUESTS requests at 16
 *   concurrent through a group of two models, with and without `hedge: { after: 'p95',
 *   maxExtra: 0.1 }`: p50, p99, p99/p50 and extra provider calls.
 * - Overload: a provider that answers 429 above 8 concurrent chat calls (20 ms each), driven at
 *   32 concurrent: an ideal client that holds itself to 8, a client with the default retries, and
 *   the same with `concurrency: { adaptive: true }` (and a short queue): the share of provider
 *   answers that are 429 and throughput against the ideal client.
 *
 *   npm run bench -- tail      (TAIL_REQUESTS=500 for a quicker run)
 */
import { userMessage } from '../src/core/chat/messages.js';
import type { ChatModel } from '../src/core/chat/chat-model.js';
import { ModelRouter } from '../src/core/group/model-router.js';
import type { RoutingEvent } from '../src/core/observability/routing-event.js';
import { withResilience } from '../src/core/resilience/resilient-chat-model.js';
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

async function overload(): Promise<void> {
  const variants = ['ideal client (holds itself to 8)', 'default retries', 'adaptive concurrency'];
  const results: { name: string; okPerS: number; share429: number; failed: number }[] = [];
  for (const [index, name] of variants.entries()) {
    const provider = await FakeProvider.start({
      apiKey: API_KEY,
      answerDelayMs: () => 20,
      maxConcurrent: 8,
    });
    try {
      const model = providerModel(provider, 'busy', 3);
      if (index === 2)
        limitConcurrency(model, { adaptive: true, max: 64, queueMs: 10_000, queueSize: 64 });
      const group = new ModelRouter({
        routes: [{ name: 'busy', model }],
        // a 429 is the provider's back-pressure: the bench keeps the model in the group throughout
        routingStrategy: new FailoverStrategy({ cooldownMs: 0 }),
      });
      const result = await drive(OVERLOAD_REQUESTS, index === 0 ? 8 : 32, () =>
        group.chat(request),
      );
      const { served, refused } = provider.load;
      results.push({
        name,
        okPerS: (result.latencies.length / result.wallMs) * 1000,
        share429: refused / Math.max(1, served + refused),
        failed: result.failed,
      });
    } finally {
      await provider.close();
    }
  }
  const ideal = results[0]!;
  printTable(
    `Overload: 429 above 8 concurrent (20 ms answers), ${OVERLOAD_REQUESTS} requests driven at 32 concurrent`,
    results.map((result) => ({
      benchmark: result.name,
      figure: `${result.okPerS.toFixed(0)} answers/s, ${result.failed} failed`,
      baseline: `429: ${(result.share429 * 100).toFixed(1)} % of provider answers`,
      ratio: `${ratio(result.okPerS, ideal.okPerS)} of ideal`,
    })),
  );
}
