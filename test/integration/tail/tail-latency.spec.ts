import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { ChatStreamEvent } from '../../../src/core/chat/chat-model.js';
import { userMessage } from '../../../src/core/chat/messages.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import type { RoutingEvent } from '../../../src/core/observability/routing-event.js';
import { withResilience } from '../../../src/core/resilience/resilient-chat-model.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { FakeProvider } from '../../../src/testing/index.js';

/**
 * Adaptive deadlines and hedging over real HTTP: OpenAiCompatibleChatModel ← FakeProvider on
 * 127.0.0.1. Waits are scaled down (a 150 ms floor, a 100 ms hedge) so the file takes about a
 * second; what is asserted is who answered and which bound cut the slow model, not durations.
 */
const API_KEY = 'sk-tail-test-000000000000';
const request = { messages: [userMessage('Hello')] };
const delays = new Map<string, number>();
let provider: FakeProvider;

beforeAll(async () => {
  provider = await FakeProvider.start({
    apiKey: API_KEY,
    answerDelayMs: (name) => delays.get(name) ?? 0,
  });
});
afterAll(async () => {
  await provider.close();
});
beforeEach(() => {
  delays.clear();
  provider.reset();
});

function model(name: string) {
  return withResilience(
    new OpenAiCompatibleChatModel({
      baseURL: provider.openaiBaseURL,
      apiKey: API_KEY,
      model: name,
    }),
    {
      name,
      retry: { maxAttempts: 1 },
      adaptive: { firstToken: { floorMs: 150, minSamples: 5 } },
    },
  );
}

async function drain(stream: AsyncIterable<ChatStreamEvent>) {
  let text = '';
  for await (const event of stream) if (event.type === 'text-delta') text += event.text;
  return text;
}

/** Two models, the first one stalled, hedged after 100 ms. */
function hedgedRouter() {
  delays.set('hedge-slow', 20_000);
  return new ModelRouter({
    routes: [
      { name: 'slow', model: model('hedge-slow') },
      { name: 'quick', model: model('hedge-quick') },
    ],
    routingStrategy: new FailoverStrategy(),
    hedge: { after: 100, maxExtra: 1 },
  });
}

describe('tail latency against the fake provider', () => {
  it('a model that learnt its fast first tokens is failed over at its learnt deadline', async () => {
    const primary = model('tail-primary');
    const router = new ModelRouter({
      routes: [
        { name: 'primary', model: primary },
        { name: 'fallback', model: model('tail-fallback') },
      ],
      routingStrategy: new FailoverStrategy({ failureThreshold: 100 }),
    });
    for (let i = 0; i < 5; i += 1) await drain(router.stream(request));
    // learnt from what the fast model showed: far under the 12 s that holds before learning (3×
    // the slowest first token; the bound leaves room for a cold first call on a busy machine)
    const learnt = primary.deadlines.firstTokenMs()!;
    expect(learnt).toBeLessThan(6_000);
    delays.set('tail-primary', 20_000);
    const events: RoutingEvent[] = [];
    const text = await drain(router.stream(request, { observer: (e) => void events.push(e) }));
    expect(text.length).toBeGreaterThan(0);
    const failed = events.find((e) => e.type === 'model-failed');
    expect(failed).toMatchObject({ model: 'primary', kind: 'timeout' });
    expect((failed as { error: { message: string } }).error.message).toContain(`${learnt} ms`);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'model-succeeded', model: 'fallback' }),
    );
  });

  it('a hedged call answers from the second model', async () => {
    const router = hedgedRouter();
    const events: RoutingEvent[] = [];
    const response = await router.chat(request, { observer: (e) => void events.push(e) });
    expect(response.aiMessage.text).toBeTruthy();
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'model-succeeded', model: 'quick' }),
    );
    expect(events).toContainEqual({
      type: 'hedge-won',
      winner: 'quick',
      loser: 'slow',
      hedge: true,
    });
    expect(provider.requests.all().map((entry) => entry.model)).toEqual([
      'hedge-slow',
      'hedge-quick',
    ]);
  });

  it('a hedged stream forwards the winner only', async () => {
    const router = hedgedRouter();
    const text = await drain(router.stream(request));
    expect(text.length).toBeGreaterThan(0);
    expect(provider.requests.all().map((entry) => entry.model)).toEqual([
      'hedge-slow',
      'hedge-quick',
    ]);
  });
});
