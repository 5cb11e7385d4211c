import { describe, expect, it } from '@jest/globals';
import { userMessage } from '../../../../src/core/chat/messages.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { MODEL_PROFILE, type ModelProfile } from '../../../../src/core/cost/model-profile.js';
import { COST_ATTRIBUTE } from '../../../../src/core/cost/cost.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { ContextLengthExceededException } from '../../../../src/core/errors/context-length-exceeded.exception.js';
import { NoMatchingModelFoundException } from '../../../../src/core/errors/exceptions.js';
import { errorAnswer } from '../../../../src/core/errors/error-answer.js';
import { RATE_LIMIT_ATTRIBUTE } from '../../../../src/core/limits/provider-quota.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { deferred, fakeModel, manualClock, recorder } from '../strategies/fakes.js';

function usageAnswer(text: string, input: number, output: number): ChatResponse {
  return {
    aiMessage: { role: 'assistant', text },
    tokenUsage: { inputTokens: input, outputTokens: output, totalTokens: input + output },
  };
}

function group(
  profiles: Record<string, ModelProfile>,
  options: { clock?: () => number; store?: InMemoryRouteStateStore } = {},
) {
  const models = Object.fromEntries(
    Object.keys(profiles).map((name) => [
      name,
      fakeModel(name, usageAnswer(`from ${name}`, 1000, 500)),
    ]),
  );
  const strategy = new FailoverStrategy(options.clock ? { clock: options.clock } : {});
  const router = new ModelRouter({
    routes: Object.entries(profiles).map(([name, profile]) => ({
      name,
      model: models[name]!,
      metadata: [[MODEL_PROFILE, profile]] as [string, unknown][],
    })),
    routingStrategy: strategy,
  });
  if (options.store)
    router.bindRouteState({
      store: options.store,
      scope: 'g',
      ...(options.clock ? { clock: options.clock } : {}),
    });
  return { router, models, strategy };
}

describe('cost of an answer', () => {
  it('prices usage with the model profile: USD in the cost attribute and the model-succeeded event', async () => {
    const { router } = group({ a: { pricing: { input: 2.5, output: 10 } } });
    const events = recorder();
    const response = await router.chat(
      { messages: [userMessage('hi')] },
      { observer: events.observer },
    );
    // 1000 × 2.5 / 1e6 + 500 × 10 / 1e6
    expect(response.aiMessage.attributes?.[COST_ATTRIBUTE]).toBe(0.0075);
    expect(events.ofType('model-succeeded')[0]!.costUsd).toBe(0.0075);
  });

  it('a model without pricing has no cost (absent, not 0)', async () => {
    const { router } = group({ a: {} });
    const response = await router.chat({ messages: [userMessage('hi')] });
    expect(response.aiMessage.attributes ?? {}).not.toHaveProperty(COST_ATTRIBUTE);
  });
});

describe('context window check', () => {
  const prompt = {
    messages: [userMessage('x'.repeat(4000))],
    parameters: { maxOutputTokens: 200 },
  }; // ≈ 1000 + 200

  it('skips a model that cannot hold prompt + requested output, without failing or cooling it', async () => {
    const { router, models, strategy } = group({
      small: { contextWindow: 1100 },
      large: { contextWindow: 8000 },
    });
    const events = recorder();
    const response = await router.chat(prompt, { observer: events.observer });
    expect(response.aiMessage.text).toBe('from large');
    expect(models.small!.chat).not.toHaveBeenCalled();
    expect(strategy.circuitOf('small').state).toBe('closed');
    expect(events.ofType('model-skipped')).toEqual([
      { type: 'model-skipped', model: 'small', reason: 'context' },
    ]);
    expect(events.ofType('model-failed')).toEqual([]);
  });

  it('when no model fits: a 400 context_length_exceeded naming the sizes', async () => {
    const { router } = group({ small: { contextWindow: 1100 }, medium: { contextWindow: 1150 } });
    const error = await router.chat(prompt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextLengthExceededException);
    expect((error as Error).message).toContain('1200 tokens');
    expect((error as Error).message).toContain('1150');
    expect(errorAnswer(error)).toMatchObject({
      status: 400,
      code: 'context_length_exceeded',
      type: 'invalid_request_error',
    });
  });
});

describe('checks inside nested groups', () => {
  it("an inner group's context error fails the outer group over, without cooling the inner one", async () => {
    const { router: inner } = group({ small: { contextWindow: 100 } });
    const big = fakeModel('big', usageAnswer('from big', 1, 1));
    const outer = new FailoverStrategy();
    const router = new ModelRouter({
      routes: [
        { name: 'inner', model: inner },
        { name: 'big', model: big },
      ],
      routingStrategy: outer,
    });
    const response = await router.chat({ messages: [userMessage('x'.repeat(1000))] });
    expect(response.aiMessage.text).toBe('from big');
    expect(outer.circuitOf('inner').state).toBe('closed');
  });
});

describe('rate limits (rpm / tpm)', () => {
  it('holds rpm exactly under concurrent calls and overflows to the next model', async () => {
    const clock = manualClock(60_000 * 1000);
    const store = new InMemoryRouteStateStore(clock.fn);
    const { router, models } = group(
      { limited: { limits: { rpm: 3 } }, spare: {} },
      { clock: clock.fn, store },
    );
    const gate = deferred<void>();
    models.limited!.chat.mockImplementation(async () => {
      await gate.promise;
      return usageAnswer('from limited', 1, 1);
    });
    const calls = Array.from({ length: 10 }, () => router.chat({ messages: [userMessage('hi')] }));
    gate.resolve();
    const texts = (await Promise.all(calls)).map((r) => r.aiMessage.text);
    expect(texts.filter((t) => t === 'from limited')).toHaveLength(3);
    expect(texts.filter((t) => t === 'from spare')).toHaveLength(7);
    expect(router.inspectModels().find((m) => m.model === 'limited')!.skipped).toEqual({
      reason: 'rate-limited',
      until: 60_000 * 1001,
    });
    clock.advance(60_000); // a new minute
    expect((await router.chat({ messages: [userMessage('hi')] })).aiMessage.text).toBe(
      'from limited',
    );
  });

  it('every model at its limit: no model now, with a retry-after until the minute ends', async () => {
    const clock = manualClock(60_000 * 1000 + 15_000);
    const store = new InMemoryRouteStateStore(clock.fn);
    const { router } = group({ only: { limits: { rpm: 1 } } }, { clock: clock.fn, store });
    await router.chat({ messages: [userMessage('hi')] });
    const error = (await router
      .chat({ messages: [userMessage('hi')] })
      .catch((e: unknown) => e)) as NoMatchingModelFoundException;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect(error.retryAfterMs).toBe(45_000);
  });

  it('tpm counts the estimate at dispatch and the real usage afterwards', async () => {
    const clock = manualClock(60_000 * 1000);
    const store = new InMemoryRouteStateStore(clock.fn);
    // each answer reports 1500 tokens; an estimate of 1 would leave room for the second call
    const { router } = group(
      { limited: { limits: { tpm: 1600 } }, spare: {} },
      { clock: clock.fn, store },
    );
    const first = await router.chat({ messages: [userMessage('hi')] });
    const second = await router.chat({ messages: [userMessage('x'.repeat(800))] }); // ≈ 200
    expect([first.aiMessage.text, second.aiMessage.text]).toEqual(['from limited', 'from spare']);
  });

  it("an exhausted provider quota (remaining 0) skips the model until the header's reset", async () => {
    const clock = manualClock(1_000_000);
    const store = new InMemoryRouteStateStore(clock.fn);
    const { router, models } = group({ a: {}, b: {} }, { clock: clock.fn, store });
    models.a!.chat.mockResolvedValue({
      ...usageAnswer('from a', 1, 1),
      aiMessage: {
        role: 'assistant',
        text: 'from a',
        attributes: {
          [RATE_LIMIT_ATTRIBUTE]: {
            'x-ratelimit-remaining-requests': '0',
            'x-ratelimit-reset-requests': '20s',
          },
        },
      },
    });
    await router.chat({ messages: [userMessage('hi')] });
    expect((await router.chat({ messages: [userMessage('hi')] })).aiMessage.text).toBe('from b');
    clock.advance(20_001);
    expect((await router.chat({ messages: [userMessage('hi')] })).aiMessage.text).toBe('from a');
  });
});
