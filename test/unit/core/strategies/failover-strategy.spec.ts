import { describe, expect, it, jest } from '@jest/globals';
import { aiMessage, toolResultMessage, userMessage } from '../../../../src/core/chat/messages.js';
import { NoMatchingModelFoundException } from '../../../../src/core/errors/exceptions.js';
import type { ChatModelWrapper } from '../../../../src/core/chat/chat-model-wrapper.js';
import { wrapModel } from '../../../../src/core/chat/chat-model-wrapper.js';
import {
  FailoverStrategy,
  type FailoverStrategyOptions,
} from '../../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { answer, fakeModel, kindError, manualClock, recorder, request } from './fakes.js';

function group(names: string[]) {
  return names.map((name) => wrapModel(name, fakeModel(name)));
}

function setup(options: FailoverStrategyOptions = {}, names = ['a', 'b', 'c']) {
  const clock = manualClock();
  const strategy = new FailoverStrategy({ cooldownMs: 1_000, clock: clock.fn, ...options });
  const models = group(names);
  strategy.registerModels(models);
  const pick = async () => (await strategy.route(models, request))?.name;
  const fail = (name: string, error: unknown = new Error(`${name} failed`)) =>
    strategy.onFailure(
      models.find((m) => m.name === name)!,
      error,
      request,
    );
  const succeed = (name: string) =>
    strategy.onSuccess(
      models.find((m) => m.name === name)!,
      answer('ok'),
      request,
    );
  return { clock, strategy, models, pick, fail, succeed };
}

describe('2.4.2 failover (the seed contract, with default options)', () => {
  it('picks the first model in registration order that is not in cooldown', async () => {
    const { pick, fail } = setup();
    expect(await pick()).toBe('a');
    await fail('a');
    expect(await pick()).toBe('b');
    await fail('b');
    expect(await pick()).toBe('c');
  });

  it('a failure puts the model in cooldown for cooldownMs from the failure: back at failedAt + cooldownMs', async () => {
    const { pick, fail, clock } = setup({ cooldownMs: 5_000 });
    clock.advance(123);
    await fail('a');
    clock.advance(4_999);
    expect(await pick()).toBe('b'); // failedAt + cooldownMs > now: still cooling
    clock.advance(1);
    expect(await pick()).toBe('a'); // now == failedAt + cooldownMs: back
  });

  it('with the defaults a model back from cooldown takes all traffic again, concurrent calls included', async () => {
    const { strategy, models, fail, clock } = setup();
    await fail('a');
    clock.advance(1_000);
    const picks = await Promise.all(
      Array.from({ length: 5 }, () =>
        strategy.route(models, request, { attributes: {}, attempt: 1 }),
      ),
    );
    expect(picks.map((m) => m?.name)).toEqual(['a', 'a', 'a', 'a', 'a']);
  });

  it('with the defaults a model failing again after its cooldown is out for cooldownMs from the new failure', async () => {
    const { pick, fail, clock, strategy } = setup();
    await fail('a');
    clock.advance(1_000);
    expect(await pick()).toBe('a');
    clock.advance(10);
    await fail('a');
    expect(strategy.circuitOf('a').cooldownUntil).toBe(clock.now + 1_000);
    clock.advance(999);
    expect(await pick()).toBe('b');
    clock.advance(1);
    expect(await pick()).toBe('a');
  });

  it('the default cooldown is 60 s', async () => {
    const clock = manualClock();
    const strategy = new FailoverStrategy({ clock: clock.fn });
    const models = group(['a', 'b']);
    await strategy.onFailure(models[0]!, new Error('x'), request);
    clock.advance(59_999);
    expect((await strategy.route(models, request))?.name).toBe('b');
    clock.advance(1);
    expect((await strategy.route(models, request))?.name).toBe('a');
  });

  it('all in cooldown → undefined', async () => {
    const { pick, fail } = setup();
    await fail('a');
    await fail('b');
    await fail('c');
    expect(await pick()).toBeUndefined();
  });

  it('with a delegate, the delegate chooses among the models not in cooldown', async () => {
    const offered: string[][] = [];
    const delegate = jest.fn((models: readonly ChatModelWrapper[]) => {
      offered.push(models.map((m) => m.name));
      return models[models.length - 1];
    });
    const { pick, fail } = setup({ delegate });
    expect(await pick()).toBe('c');
    await fail('c');
    expect(await pick()).toBe('b');
    expect(offered).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b'],
    ]);
  });

  it('the delegate’s hooks run too', async () => {
    const onSuccess = jest.fn<() => void>();
    const onFailure = jest.fn<() => void>();
    const { fail, succeed } = setup({ delegate: { route: (m) => m[0], onSuccess, onFailure } });
    await fail('a');
    await succeed('b');
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('through ModelRouter: every model cooling → NoMatchingModelFoundException with retryAfterMs = earliest end - now', async () => {
    const clock = manualClock();
    const strategy = new FailoverStrategy({ cooldownMs: 10_000, clock: clock.fn });
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b', new Error('b is down'))],
      routingStrategy: strategy,
    });
    await expect(router.chat(request)).rejects.toBeInstanceOf(NoMatchingModelFoundException);
    clock.advance(2_500);
    const error = (await router
      .chat(request)
      .catch((e: unknown) => e)) as NoMatchingModelFoundException;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect(error.message).toContain('No matching route');
    expect(error.message).toContain('cooling down');
    expect(error.errors).toEqual([]);
    expect(error.retryAfterMs).toBe(7_500);
  });

  it('through ModelRouter: a failed model is skipped by the next call', async () => {
    const clock = manualClock();
    const a = fakeModel('a', new Error('down'), answer('a is back'));
    const b = fakeModel('b', answer('from b'));
    const router = new ModelRouter({
      routes: [a, b],
      routingStrategy: new FailoverStrategy({ cooldownMs: 1_000, clock: clock.fn }),
    });
    await expect(router.chat(request)).resolves.toEqual(answer('from b'));
    await expect(router.chat(request)).resolves.toEqual(answer('from b'));
    expect(a.chat).toHaveBeenCalledTimes(1);
    clock.advance(1_000);
    await expect(router.chat(request)).resolves.toEqual(answer('a is back'));
  });
});

describe('circuit breaker: closed → open → half-open → closed', () => {
  it('walks the states and reports each transition', async () => {
    const { pick, fail, succeed, clock, strategy } = setup();
    const seen = recorder();
    strategy.onEvent(seen.observer);
    expect(strategy.circuitOf('a').state).toBe('closed');
    await fail('a');
    expect(strategy.circuitOf('a')).toEqual(
      expect.objectContaining({ state: 'open', cooldownUntil: clock.now + 1_000, failures: 1 }),
    );
    clock.advance(1_000);
    expect(await pick()).toBe('a'); // the probe
    expect(strategy.circuitOf('a')).toEqual(
      expect.objectContaining({ state: 'half-open', probes: 1 }),
    );
    await succeed('a');
    expect(strategy.circuitOf('a')).toEqual(
      expect.objectContaining({ state: 'closed', failures: 0, probes: 0 }),
    );
    expect(seen.events.map((e) => e.type)).toEqual([
      'cooldown-started',
      'circuit-changed',
      'cooldown-ended',
      'circuit-changed',
      'circuit-changed',
    ]);
    expect(seen.ofType('circuit-changed').map((e) => `${e.from}>${e.to}`)).toEqual([
      'closed>open',
      'open>half-open',
      'half-open>closed',
    ]);
    expect(seen.ofType('cooldown-started')[0]).toEqual({
      type: 'cooldown-started',
      model: 'a',
      cooldownUntil: clock.now,
      failures: 1,
      error: { name: 'Error', message: 'a failed' },
    });
  });

  it('a failed probe re-opens the circuit with an escalating cooldown, capped at maxCooldownMs', async () => {
    const { pick, fail, clock, strategy } = setup({ cooldownMultiplier: 2, maxCooldownMs: 5_000 });
    await fail('a'); // 1 000
    const cooldowns: number[] = [];
    for (let round = 0; round < 5; round++) {
      clock.now = strategy.circuitOf('a').cooldownUntil!;
      expect(await pick()).toBe('a');
      await fail('a');
      cooldowns.push(strategy.circuitOf('a').cooldownUntil! - clock.now);
    }
    expect(cooldowns).toEqual([2_000, 4_000, 5_000, 5_000, 5_000]);
  });

  it('a successful probe resets the escalation', async () => {
    const { pick, fail, succeed, clock, strategy } = setup({ cooldownMultiplier: 2 });
    await fail('a');
    clock.advance(1_000);
    await pick();
    await fail('a'); // re-open: 2 000
    clock.advance(2_000);
    await pick();
    await succeed('a');
    await fail('a');
    expect(strategy.circuitOf('a').cooldownUntil! - clock.now).toBe(1_000);
  });

  it('cooldownMultiplier and jitter shape the cooldown (jitter with an injected random)', async () => {
    const { fail, pick, clock, strategy } = setup({
      cooldownMultiplier: 3,
      jitter: 0.5,
      random: () => 1, // the top of the range: +50 %
    });
    await fail('a');
    expect(strategy.circuitOf('a').cooldownUntil! - clock.now).toBe(1_500);
    clock.now = strategy.circuitOf('a').cooldownUntil!;
    await pick();
    await fail('a');
    expect(strategy.circuitOf('a').cooldownUntil! - clock.now).toBe(4_500);
  });

  it('while the probe is in flight, the other requests keep going to the other models', async () => {
    const { pick, fail, clock } = setup({ halfOpenProbes: 1 });
    await fail('a');
    clock.advance(1_000);
    expect(await pick()).toBe('a');
    expect(await pick()).toBe('b');
    expect(await pick()).toBe('b');
  });

  it('exactly N probes are admitted when many requests arrive at once (in-memory store)', async () => {
    const { strategy, models, fail, clock } = setup({ halfOpenProbes: 2 });
    await fail('a');
    clock.advance(1_000);
    const picks = await Promise.all(
      Array.from({ length: 20 }, () =>
        strategy.route(models, request, { attributes: {}, attempt: 1 }),
      ),
    );
    const names = picks.map((m) => m?.name);
    expect(names.filter((n) => n === 'a')).toHaveLength(2);
    expect(names.filter((n) => n === 'b')).toHaveLength(18);
  });

  it('exactly N probes with an asynchronous store whose compare-and-set answers later', async () => {
    const clock = manualClock();
    const store = asyncStore(clock.fn);
    const strategy = new FailoverStrategy({
      cooldownMs: 1_000,
      clock: clock.fn,
      store,
      halfOpenProbes: 3,
    });
    const models = group(['a', 'b']);
    await strategy.onFailure(models[0]!, new Error('x'), request);
    clock.advance(1_000);
    const picks = await Promise.all(
      Array.from({ length: 30 }, () =>
        strategy.route(models, request, { attributes: {}, attempt: 1 }),
      ),
    );
    expect(picks.filter((m) => m?.name === 'a')).toHaveLength(3);
    expect(strategy.circuitOf('a')).toEqual(
      expect.objectContaining({ state: 'half-open', probes: 3 }),
    );
  });

  it('a probe that ends without a verdict frees its slot (the caller left)', async () => {
    const { strategy, models, fail, clock } = setup({ halfOpenProbes: 1 });
    await fail('a');
    clock.advance(1_000);
    const context = { attributes: {}, attempt: 1 };
    expect((await strategy.route(models, request, context))?.name).toBe('a');
    expect((await strategy.route(models, request))?.name).toBe('b');
    await strategy.onCancel(models[0]!, new Error('left'), request, context);
    expect(strategy.circuitOf('a').probes).toBe(0);
    expect((await strategy.route(models, request))?.name).toBe('a');
  });

  it('a probe that never reports frees its slot after probeTimeoutMs', async () => {
    const { pick, fail, clock } = setup({ halfOpenProbes: 1, probeTimeoutMs: 30_000 });
    await fail('a');
    clock.advance(1_000);
    expect(await pick()).toBe('a');
    clock.advance(29_999);
    expect(await pick()).toBe('b');
    clock.advance(1);
    expect(await pick()).toBe('a');
  });

  it('a late failure of a request admitted while closed does not re-open a half-open circuit', async () => {
    const { strategy, models, clock } = setup();
    const early = { attributes: {}, attempt: 1 };
    expect((await strategy.route(models, request, early))?.name).toBe('a'); // admitted while closed
    await strategy.onFailure(models[0]!, new Error('first'), request);
    clock.advance(1_000);
    const probe = { attributes: {}, attempt: 1 };
    await strategy.route(models, request, probe);
    await strategy.onFailure(models[0]!, new Error('late'), request, early);
    expect(strategy.circuitOf('a').state).toBe('half-open');
    await strategy.onSuccess(models[0]!, answer('ok'), request, probe);
    expect(strategy.circuitOf('a').state).toBe('closed');
  });
});

describe('circuit breaker: what opens it', () => {
  it('failureThreshold counts consecutive failures; a success resets the count', async () => {
    const { pick, fail, succeed, strategy } = setup({ failureThreshold: 3 });
    await fail('a');
    await fail('a');
    await succeed('a');
    await fail('a');
    await fail('a');
    expect(await pick()).toBe('a');
    expect(strategy.circuitOf('a')).toEqual(
      expect.objectContaining({ state: 'closed', consecutiveFailures: 2, failures: 4 }),
    );
    await fail('a');
    expect(await pick()).toBe('b');
  });

  it('failureRateThreshold opens the circuit once the window has enough calls', async () => {
    const { fail, succeed, strategy, clock } = setup({
      failureRateThreshold: 0.5,
      window: { durationMs: 10_000, minimumRequests: 4 },
    });
    await succeed('a');
    await fail('a');
    await succeed('a');
    expect(strategy.circuitOf('a').state).toBe('closed'); // 1 of 3: too few calls anyway
    await fail('a'); // 2 of 4 = 50 %
    expect(strategy.circuitOf('a').state).toBe('open');
    // a new window forgets the old calls
    clock.advance(20_000);
    await strategy.route(group(['a']), request);
    await succeed('a');
    await fail('a');
    expect(strategy.circuitOf('a').windowRequests).toBe(1);
  });

  it('a failure rate below the threshold keeps the circuit closed', async () => {
    const { fail, succeed, strategy } = setup({
      failureRateThreshold: 0.5,
      window: { minimumRequests: 4 },
    });
    for (const ok of [true, true, false, true, true, false]) await (ok ? succeed('a') : fail('a'));
    expect(strategy.circuitOf('a').state).toBe('closed');
  });

  it('only failures that count against the model open it', async () => {
    const { pick, fail, strategy } = setup();
    await fail('a', kindError('context-length'));
    await fail('a', kindError('invalid-request'));
    expect(await pick()).toBe('a');
    expect(strategy.circuitOf('a').failures).toBe(0);
    await fail('a', kindError('misconfigured'));
    expect(await pick()).toBe('b');
  });

  it('through ModelRouter, a context-length failure fails over without a cooldown', async () => {
    const clock = manualClock();
    const strategy = new FailoverStrategy({ clock: clock.fn });
    const a = fakeModel('a', kindError('context-length'), answer('a again'));
    const router = new ModelRouter({
      routes: [a, fakeModel('b', answer('b'))],
      routingStrategy: strategy,
    });
    await expect(router.chat(request)).resolves.toEqual(answer('b'));
    await expect(router.chat(request)).resolves.toEqual(answer('a again'));
  });
});

describe('whenAllOpen', () => {
  it('fail-fast (default) picks nothing', async () => {
    const { pick, fail } = setup({}, ['a', 'b']);
    await fail('a');
    await fail('b');
    expect(await pick()).toBeUndefined();
  });

  it('try-oldest tries the model whose circuit opened longest ago; its success closes it', async () => {
    const { pick, fail, strategy, models, clock } = setup(
      { whenAllOpen: 'try-oldest', cooldownMs: 60_000 },
      ['a', 'b'],
    );
    await fail('b');
    clock.advance(10);
    await fail('a');
    const context = { attributes: {}, attempt: 1 };
    const forced = await strategy.route(models, request, context);
    expect(forced?.name).toBe('b');
    await strategy.onSuccess(forced!, answer('ok'), request, context);
    expect(strategy.circuitOf('b').state).toBe('closed');
    expect(strategy.circuitOf('a').state).toBe('open');
    expect(await pick()).toBe('b');
  });

  it('try-oldest: a forced attempt that fails keeps the model out for another cooldown', async () => {
    const { fail, strategy, models, clock } = setup({ whenAllOpen: 'try-oldest' }, ['a']);
    await fail('a');
    clock.advance(500);
    const context = { attributes: {}, attempt: 1 };
    expect((await strategy.route(models, request, context))?.name).toBe('a');
    await strategy.onFailure(models[0]!, new Error('still down'), request, context);
    expect(strategy.circuitOf('a')).toEqual(
      expect.objectContaining({ state: 'open', cooldownUntil: clock.now + 1_000, failures: 2 }),
    );
  });

  it('a tool loop does not force its cooling model: the others serve it', async () => {
    const clock = manualClock();
    const toolAnswer = {
      aiMessage: aiMessage({ toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{}' }] }),
    };
    const a = fakeModel('a', toolAnswer, new Error('a down'));
    const b = fakeModel('b', answer('b'));
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: b },
      ],
      routingStrategy: new FailoverStrategy({ clock: clock.fn, whenAllOpen: 'try-oldest' }),
    });
    const toolRound = await router.chat(request);
    const followUp = {
      messages: [userMessage('Hello'), toolRound.aiMessage, toolResultMessage('c1', '42')],
    };
    await expect(router.chat(followUp)).resolves.toEqual(answer('b')); // a fails, b serves
    await expect(router.chat(followUp)).resolves.toEqual(answer('b')); // a cools: b at once
    expect(a.chat).toHaveBeenCalledTimes(2);
  });

  it('retryAfterMs is undefined while some model can still be tried', async () => {
    const { strategy, models, fail } = setup({}, ['a', 'b']);
    await fail('a');
    expect(strategy.retryAfterMs(models)).toBeUndefined();
    await fail('b');
    expect(strategy.retryAfterMs(models)).toBe(1_000);
  });
});

describe('cooldown events', () => {
  it('cooldown-ended is announced once, by whichever component notices first (route)', async () => {
    const { strategy, models, fail, clock } = setup();
    const global = recorder();
    strategy.onEvent(global.observer);
    await fail('a');
    clock.advance(1_000);
    const call = recorder();
    const context = {
      attributes: { chat_model_route: 'simple' },
      attempt: 1,
      route: 'simple',
      observer: call.observer,
    };
    await strategy.route(models, request, context);
    strategy.inspectModels();
    await strategy.route(models, request, context);
    expect(call.ofType('cooldown-ended')).toEqual([
      { type: 'cooldown-ended', route: 'simple', model: 'a' },
    ]);
    expect(global.ofType('cooldown-ended')).toEqual([]);
  });

  it('a health check noticing the end announces it to the onEvent listeners, once', async () => {
    const { strategy, fail, clock, pick } = setup();
    const global = recorder();
    const unsubscribe = strategy.onEvent(global.observer);
    await fail('a');
    clock.advance(999);
    expect(strategy.inspectModels()[0]).toEqual(
      expect.objectContaining({ model: 'a', state: 'cooldown', cooldownUntil: clock.now + 1 }),
    );
    clock.advance(1);
    expect(strategy.inspectModels()[0]!.state).toBe('half-open');
    strategy.inspectModels();
    await pick();
    expect(global.ofType('cooldown-ended')).toHaveLength(1);
    expect(global.ofType('circuit-changed').map((e) => e.to)).toEqual(['open', 'half-open']);
    unsubscribe();
    await fail('a');
    expect(global.ofType('cooldown-started')).toHaveLength(1);
  });

  it('events noticed in a call go to its observer, not to the onEvent listeners', async () => {
    const clock = manualClock();
    const strategy = new FailoverStrategy({ clock: clock.fn });
    const global = recorder();
    strategy.onEvent(global.observer);
    const call = recorder();
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b')],
      routingStrategy: strategy,
    });
    await router.chat(request, { observer: call.observer, attributes: { chat_model_route: 'r' } });
    expect(call.ofType('cooldown-started')).toEqual([
      expect.objectContaining({ route: 'r', model: 'model-1', failures: 1 }),
    ]);
    expect(global.events).toEqual([]);
  });

  it('ModelRouter.onEvent subscribes to its strategy', async () => {
    const strategy = new FailoverStrategy({ clock: manualClock().fn });
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b')],
      routingStrategy: strategy,
    });
    const global = recorder();
    router.onEvent(global.observer);
    await router.chat(request);
    expect(global.ofType('cooldown-started')).toHaveLength(1);
  });
});

describe('inspection and state', () => {
  it('inspectModels reports state, cooldownUntil, failures and the last error per model', async () => {
    const { strategy, fail, pick, clock } = setup();
    await fail('b', new TypeError('socket hang up'));
    clock.advance(1_000);
    await fail('c');
    expect(await pick()).toBe('a'); // a is first, so b's expired cooldown is noticed by inspection
    expect(strategy.inspectModels()).toEqual([
      { model: 'a', state: 'available', failures: 0 },
      {
        model: 'b',
        state: 'half-open',
        failures: 1,
        lastError: { name: 'TypeError', message: 'socket hang up' },
      },
      {
        model: 'c',
        state: 'cooldown',
        cooldownUntil: clock.now + 1_000,
        failures: 1,
        lastError: { name: 'Error', message: 'c failed' },
      },
    ]);
  });

  it('ModelRouter.inspectModels delegates to the strategy', async () => {
    const clock = manualClock();
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: fakeModel('a', new Error('a is down')) },
        { name: 'b', model: fakeModel('b') },
      ],
      routingStrategy: new FailoverStrategy({ clock: clock.fn }),
    });
    await router.chat(request);
    expect(router.inspectModels().map((s) => [s.model, s.state])).toEqual([
      ['a', 'cooldown'],
      ['b', 'available'],
    ]);
  });

  it('keeps circuits in the store under `${scope}:${model}`', async () => {
    const clock = manualClock();
    const store = new InMemoryRouteStateStore(clock.fn);
    const strategy = new FailoverStrategy({ clock: clock.fn, store, scope: 'grp' });
    await strategy.onFailure(wrapModel('a', fakeModel('a')), new Error('x'), request);
    expect([...store.listCircuits('grp:').keys()]).toEqual(['grp:a']);
  });

  it('two strategies on one store keep separate state by default', async () => {
    const store = new InMemoryRouteStateStore();
    const one = new FailoverStrategy({ store });
    const two = new FailoverStrategy({ store });
    const models = group(['a', 'b']);
    await one.onFailure(models[0]!, new Error('x'), request);
    expect((await two.route(models, request))?.name).toBe('a');
  });

  it('bindRouteState replaces store, scope and clock unless they were given explicitly', async () => {
    const clock = manualClock();
    const shared = new InMemoryRouteStateStore(clock.fn);
    const models = group(['a', 'b']);
    const bound = new FailoverStrategy();
    bound.bindRouteState({ store: shared, scope: 'default/simple', clock: clock.fn });
    await bound.onFailure(models[0]!, new Error('x'), request);
    expect(shared.getCircuit('default/simple:a')).toEqual(
      expect.objectContaining({ state: 'open', cooldownUntil: clock.now + 60_000 }),
    );
    const own = new InMemoryRouteStateStore();
    const explicit = new FailoverStrategy({ store: own, scope: 'mine' });
    explicit.bindRouteState({ store: shared, scope: 'other' });
    await explicit.onFailure(models[0]!, new Error('x'), request);
    expect(own.getCircuit('mine:a').state).toBe('open');
    expect(shared.getCircuit('other:a').state).toBe('closed');
  });

  it('ModelRouter.bindRouteState reaches the strategy', async () => {
    const shared = new InMemoryRouteStateStore();
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b')],
      routingStrategy: new FailoverStrategy(),
    });
    router.bindRouteState({ store: shared, scope: 'r/x' });
    await router.chat(request);
    expect(shared.getCircuit('r/x:model-1').state).toBe('open');
  });

  it('a store that cannot write keeps the calls going and the delegate’s bookkeeping running', async () => {
    const store = new InMemoryRouteStateStore();
    const broken = Object.create(store) as InMemoryRouteStateStore;
    Object.defineProperty(broken, 'compareAndSetNow', { value: undefined });
    broken.compareAndSetCircuit = () => Promise.reject(new Error('store offline'));
    const onFailure = jest.fn<() => void>();
    const router = new ModelRouter({
      routes: [fakeModel('a', new Error('a is down')), fakeModel('b', answer('b'))],
      routingStrategy: new FailoverStrategy({
        store: broken,
        delegate: { route: (models) => models[0], onFailure },
      }),
    });
    await expect(router.chat(request)).resolves.toEqual(answer('b'));
    expect(onFailure).toHaveBeenCalledTimes(1);
  });

  it('a strategy instance serves one ModelRouter: a second one with other models is rejected', () => {
    const strategy = new FailoverStrategy();
    const router = new ModelRouter({ routes: [fakeModel('a')], routingStrategy: strategy });
    expect(router.models()).toHaveLength(1);
    expect(
      () =>
        new ModelRouter({
          routes: [{ name: 'x', model: fakeModel('x') }],
          routingStrategy: strategy,
        }),
    ).toThrow(/already serves a ModelRouter/);
  });
});

describe('FailoverStrategy options are validated by name', () => {
  it.each([
    [{ cooldownMs: -1 }, 'cooldownMs'],
    [{ cooldownMs: Number.NaN }, 'cooldownMs'],
    [{ failureThreshold: 0 }, 'failureThreshold'],
    [{ failureRateThreshold: 1.5 }, 'failureRateThreshold'],
    [{ failureRateThreshold: 0.5, window: { minimumRequests: 0 } }, 'window.minimumRequests'],
    [{ window: { durationMs: 1 } }, 'window'],
    [{ halfOpenProbes: 1.5 }, 'halfOpenProbes'],
    [{ halfOpenProbes: 0 }, 'halfOpenProbes'],
    [{ cooldownMultiplier: 0.5 }, 'cooldownMultiplier'],
    [{ cooldownMs: 10_000, maxCooldownMs: 5_000 }, 'maxCooldownMs'],
    [{ jitter: 2 }, 'jitter'],
    [{ whenAllOpen: 'panic' }, 'whenAllOpen'],
    [{ delegate: 42 }, 'delegate'],
    [{ clock: 'now' }, 'clock'],
  ])('%j → names %s', (options, field) => {
    expect(() => new FailoverStrategy(options as FailoverStrategyOptions)).toThrow(field);
  });
});

/** A store like a remote one: reads are immediate, compare-and-set answers a tick later. */
function asyncStore(clock: () => number): InMemoryRouteStateStore {
  const inner = new InMemoryRouteStateStore(clock);
  const store = Object.create(inner) as InMemoryRouteStateStore & { compareAndSetNow?: unknown };
  Object.defineProperty(store, 'compareAndSetNow', { value: undefined });
  store.compareAndSetCircuit = async (key, expected, next) => {
    await new Promise((resolve) => setImmediate(resolve));
    return inner.compareAndSetNow(key, expected, next);
  };
  return store;
}
