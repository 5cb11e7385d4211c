import { describe, expect, it } from '@jest/globals';
import { wrapModel } from '../../../../src/core/chat/chat-model-wrapper.js';
import type { ChatModel, ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import {
  FailoverStrategy,
  type FailoverStrategyOptions,
} from '../../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import type { StrategyCallContext } from '../../../../src/core/strategies/model-routing-strategy.js';
import {
  answer,
  complete,
  delta,
  drain,
  kindError,
  manualClock,
  request,
} from '../strategies/fakes.js';

/** A strategy over [a, b] whose calls take `ms` of the manual clock each. */
function setup(options: FailoverStrategyOptions) {
  const clock = manualClock();
  const strategy = new FailoverStrategy({ cooldownMs: 1_000, clock: clock.fn, ...options });
  const models = ['a', 'b'].map((name) => wrapModel(name, { chat: async () => answer(name) }));
  strategy.registerModels(models);
  const call = async (outcome: 'ok' | Error, ms = 0) => {
    const context: StrategyCallContext = { attributes: {}, attempt: 1 };
    const model = (await strategy.route([models[0]!], request, context))!;
    clock.advance(ms);
    if (outcome === 'ok') await strategy.onSuccess(model, answer('ok'), request, context);
    else await strategy.onFailure(model, outcome, request, context);
  };
  return { clock, strategy, call, state: () => strategy.circuitOf('a').state };
}

describe('the sliding failure-rate breaker', () => {
  it('a count window opens on the rate of the last N calls, not of all calls', async () => {
    const { call, state, strategy } = setup({
      failureRateThreshold: 0.5,
      window: { calls: 4, minimumRequests: 4 },
    });
    for (let i = 0; i < 6; i += 1) await call('ok');
    await call(new Error('x'));
    expect(state()).toBe('closed'); // 1 of the last 4
    await call(new Error('x')); // 2 of the last 4
    expect(state()).toBe('open');
    expect(strategy.inspectModels()[0]!.window).toBeUndefined(); // reset as it opened
  });

  it('a time window slides: failures leave it one by one as they age', async () => {
    const { call, state, clock } = setup({
      failureRateThreshold: 0.5,
      window: { durationMs: 10_000, minimumRequests: 4 },
    });
    await call(new Error('x'));
    clock.advance(6_000);
    await call('ok');
    await call('ok');
    clock.advance(5_000); // the first failure has left the window; a fixed one would still hold it
    await call(new Error('x'));
    expect(state()).toBe('closed'); // 1 failure of 3 calls, under the minimum anyway
    await call(new Error('x')); // 2 of 4
    expect(state()).toBe('open');
  });

  it('opens on the share of slow calls even when every call succeeds', async () => {
    const { call, state, strategy } = setup({
      slowCallRateThreshold: 0.5,
      slowCallMs: 2_000,
      window: { calls: 10, minimumRequests: 4 },
    });
    await call('ok', 100);
    await call('ok', 3_000);
    await call('ok', 100);
    expect(strategy.inspectModels()[0]!.window).toEqual({
      calls: 3,
      failureRate: 0,
      slowCallRate: 1 / 3,
    });
    await call('ok', 3_000); // 2 slow of 4
    expect(state()).toBe('open');
    expect(strategy.inspectModels()[0]!.lastError).toMatchObject({ name: 'SlowCalls' });
  });

  it("neither a caller's bad request nor an abort counts", async () => {
    const { call, state, strategy } = setup({
      failureRateThreshold: 0.5,
      window: { calls: 4, minimumRequests: 2 },
    });
    await call('ok');
    await call(kindError('invalid-request'));
    await call(kindError('context-length'));
    expect(state()).toBe('closed');
    expect(strategy.inspectModels()[0]!.window?.calls).toBe(1);
  });

  it('a stream that fails after its first token counts; its time to first token decides slow', async () => {
    const clock = manualClock();
    const strategy = new FailoverStrategy({
      clock: clock.fn,
      failureRateThreshold: 0.5,
      window: { calls: 10, minimumRequests: 2 },
    });
    let broken = false;
    const flaky: ChatModel = {
      chat: async () => answer('x'),
      async *stream(): AsyncGenerator<ChatStreamEvent> {
        yield delta('part');
        if (broken) throw kindError('transient', 'connection reset mid-stream');
        yield complete('part');
      },
    };
    const router = new ModelRouter({
      routes: [{ name: 'a', model: flaky }],
      routingStrategy: strategy,
    });
    expect((await drain(router.stream(request))).error).toBeUndefined();
    broken = true;
    expect((await drain(router.stream(request))).error).toBeDefined();
    expect(strategy.circuitOf('a').state).toBe('open'); // 1 failure of 2 calls
  });

  it.each([
    [{ slowCallRateThreshold: 2 }, 'slowCallRateThreshold'],
    [{ failureRateThreshold: 0.5, window: { calls: 0 } }, 'window.calls'],
    [{ failureRateThreshold: 0.5, window: { calls: 5, durationMs: 100 } }, 'not both'],
    [{ slowCallMs: 100 }, 'slowCallMs'],
    [{ slowCallRateThreshold: 0.5, slowCallMs: -1 }, 'slowCallMs'],
  ])('%j → names %s', (options, field) => {
    expect(() => new FailoverStrategy(options as FailoverStrategyOptions)).toThrow(field);
  });
});

describe('the sliding window in a shared store', () => {
  it('survives the JSON round trip the Redis store makes', async () => {
    const { encodeCircuit, decodeCircuit } = await import('../../../../src/redis/circuit-codec.js');
    const { call, strategy } = setup({
      failureRateThreshold: 0.9,
      window: { durationMs: 10_000, minimumRequests: 100 },
    });
    await call('ok');
    await call(new Error('x'));
    const record = strategy.circuitOf('a');
    const back = decodeCircuit(encodeCircuit(record), record.version)!;
    expect(back.windowBuckets).toEqual(record.windowBuckets);
    expect(back).toMatchObject({ windowRequests: 2, windowFailures: 1 });
  });
});
