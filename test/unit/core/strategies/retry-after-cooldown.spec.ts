import { describe, expect, it } from '@jest/globals';
import { NoMatchingModelFoundException } from '../../../../src/core/errors/exceptions.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { wrapModel } from '../../../../src/core/chat/chat-model-wrapper.js';
import {
  FailoverStrategy,
  type FailoverStrategyOptions,
} from '../../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { answer, fakeModel, manualClock, recorder, request } from './fakes.js';

const rateLimited = (retryAfterMs?: number) =>
  new ProviderException('429 Too Many Requests', {
    kind: 'rate-limited',
    provider: 'openai',
    status: 429,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });

function setup(options: FailoverStrategyOptions = {}) {
  const clock = manualClock();
  const strategy = new FailoverStrategy({ cooldownMs: 15_000, clock: clock.fn, ...options });
  const models = ['a', 'b'].map((name) => wrapModel(name, fakeModel(name)));
  strategy.registerModels(models);
  const [a] = models;
  const pick = async () => (await strategy.route(models, request))?.name;
  const fail = (error: unknown) => strategy.onFailure(a!, error, request);
  const cooldownLeft = () => strategy.circuitOf('a').cooldownUntil! - clock.now;
  return { clock, strategy, pick, fail, cooldownLeft };
}

describe('a failure that asks for a wait (Retry-After) opens the circuit at least that long', () => {
  it('a 429 with Retry-After 30 s keeps the model out 30 s, not the 15 s cooldown', async () => {
    const { clock, pick, fail, cooldownLeft } = setup();
    await fail(rateLimited(30_000));

    expect(cooldownLeft()).toBe(30_000);
    clock.advance(15_000);
    expect(await pick()).toBe('b');
    clock.advance(14_999);
    expect(await pick()).toBe('b');
    clock.advance(1);
    expect(await pick()).toBe('a');
  });

  it('a failure without Retry-After keeps exactly cooldownMs', async () => {
    const { fail, cooldownLeft } = setup();
    await fail(rateLimited());

    expect(cooldownLeft()).toBe(15_000);
  });

  it('a Retry-After shorter than the cooldown changes nothing', async () => {
    const { fail, cooldownLeft } = setup();
    await fail(rateLimited(2_000));

    expect(cooldownLeft()).toBe(15_000);
  });

  it('is capped at maxCooldownMs', async () => {
    const { fail, cooldownLeft } = setup({ maxCooldownMs: 120_000 });
    await fail(rateLimited(3_600_000));

    expect(cooldownLeft()).toBe(120_000);
  });

  it('reads the Retry-After header of a raw SDK error too', async () => {
    const { fail, cooldownLeft } = setup();
    const sdkError = Object.assign(new Error('429 Too Many Requests'), {
      status: 429,
      headers: { 'retry-after': '45' },
    });
    await fail(sdkError);

    expect(cooldownLeft()).toBe(45_000);
  });

  it('a failed probe re-opens for the longer of the escalated cooldown and the Retry-After', async () => {
    const { clock, pick, fail, cooldownLeft } = setup({
      halfOpenProbes: 1,
      cooldownMultiplier: 2,
    });
    const probe = async (error: unknown) => {
      clock.advance(cooldownLeft());
      expect(await pick()).toBe('a');
      await fail(error);
    };
    await fail(rateLimited());
    expect(cooldownLeft()).toBe(15_000);

    // escalated to 30 s; the provider asks for 50 s
    await probe(rateLimited(50_000));
    expect(cooldownLeft()).toBe(50_000);

    // escalated to 60 s, longer than the provider's 20 s
    await probe(rateLimited(20_000));
    expect(cooldownLeft()).toBe(60_000);
  });

  it('a Retry-After arriving while the circuit is already open extends the cooldown', async () => {
    const { clock, fail, cooldownLeft } = setup();
    await fail(rateLimited());
    clock.advance(5_000);

    // a request admitted before the circuit opened fails later with a longer wait
    await fail(rateLimited(40_000));

    expect(cooldownLeft()).toBe(40_000);
  });

  it('announces the cooldown that lasts as long as the provider asked', async () => {
    const { clock, strategy, fail } = setup();
    const { observer, ofType } = recorder();
    strategy.onEvent(observer);
    await fail(rateLimited(30_000));

    expect(ofType('cooldown-started').map((event) => event.cooldownUntil)).toEqual([
      clock.now + 30_000,
    ]);
  });

  it('through ModelRouter: every model rate-limited → retryAfterMs until the earliest Retry-After ends', async () => {
    const clock = manualClock();
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: fakeModel('a', rateLimited(30_000), answer('a is back')) },
        { name: 'b', model: fakeModel('b', rateLimited(45_000)) },
      ],
      routingStrategy: new FailoverStrategy({ cooldownMs: 15_000, clock: clock.fn }),
    });
    await expect(router.chat(request)).rejects.toThrow(NoMatchingModelFoundException);
    clock.advance(15_000);

    const cooling = await router.chat(request).catch((error: unknown) => error);
    expect(cooling).toBeInstanceOf(NoMatchingModelFoundException);
    expect((cooling as NoMatchingModelFoundException).retryAfterMs).toBe(15_000);

    clock.advance(15_000);
    expect((await router.chat(request)).aiMessage.text).toBe('a is back');
  });
});
