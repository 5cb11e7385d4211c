// Contract tests for DESIGN.md 2.4 (ModelRouter and routing strategies), black-box through src/index.ts.
import { describe, expect, it, jest } from '@jest/globals';
import {
  FailoverStrategy,
  InvalidConfigurationException,
  LowestTokenUsageRoutingStrategy,
  ModelRouter,
  NoMatchingModelFoundException,
  userMessage,
  type ChatModelWrapper,
  type ChatRequest,
  type ChatResponse,
} from '../../src/index.js';
import { failingModel, fakeModel, outcome, type ChatFn, type FakeModel } from './fakes.js';

type RouterOptions = ConstructorParameters<typeof ModelRouter>[0];
type ErrorListener = Parameters<ModelRouter['addErrorListener']>[0];
type ErrorEvent = Parameters<ErrorListener>[0];
type PickFn = (
  models: readonly ChatModelWrapper[],
  request: ChatRequest,
) => ChatModelWrapper | undefined | Promise<ChatModelWrapper | undefined>;

const request = (): ChatRequest => ({ messages: [userMessage('hello')] });

const first: PickFn = (models) => models[0];

function names(models: readonly ChatModelWrapper[]): string[] {
  return models.map((m) => m.name);
}

/** The names offered to a mocked strategy on each of its calls. */
function offered(pick: jest.Mock<PickFn>): string[][] {
  return pick.mock.calls.map(([models]) => names(models));
}

function build(options: Record<string, unknown>): ModelRouter {
  return new ModelRouter(options as unknown as RouterOptions);
}

/** A model answering with the given total token usage (or none). */
function usageModel(totalTokens?: number): FakeModel {
  return {
    chat: jest.fn<ChatFn>(async () => {
      const response: ChatResponse = { aiMessage: { role: 'assistant', text: 'ok' } };
      if (totalTokens !== undefined) response.tokenUsage = { totalTokens };
      return response;
    }),
  };
}

/** Which model (by label) served each call of a sequence. */
async function servedSequence(
  router: ModelRouter,
  models: Record<string, FakeModel>,
  calls: number,
): Promise<string[]> {
  const sequence: string[] = [];
  for (let i = 0; i < calls; i += 1) {
    const before = Object.fromEntries(
      Object.entries(models).map(([k, m]) => [k, m.chat.mock.calls.length]),
    );
    await router.chat(request());
    const servedNow = Object.entries(models)
      .filter(([k, m]) => m.chat.mock.calls.length > before[k]!)
      .map(([k]) => k);
    sequence.push(servedNow.join('+'));
  }
  return sequence;
}

describe('2.4 ModelRouter construction', () => {
  it.each<[string, Record<string, unknown>]>([
    ['missing', { routes: [fakeModel()] }],
    ['undefined', { routes: [fakeModel()], routingStrategy: undefined }],
    ['null', { routes: [fakeModel()], routingStrategy: null }],
  ])(
    '%s routingStrategy → InvalidConfigurationException containing routingStrategy',
    (_, options) => {
      expect(() => build(options)).toThrow(InvalidConfigurationException);
      expect(() => build(options)).toThrow('routingStrategy');
    },
  );

  it('unnamed routes are named model-N by 1-based position; named ones keep their name', async () => {
    const m1 = fakeModel('1');
    const m2 = fakeModel('2');
    const m3 = fakeModel('3');
    const pick = jest.fn<PickFn>(first);
    const router = new ModelRouter({
      routes: [m1, { name: 'named', model: m2 }, m3],
      routingStrategy: pick,
    });
    await router.chat(request());
    const [models] = pick.mock.calls[0]!;
    expect(names(models)).toEqual(['model-1', 'named', 'model-3']);
    expect(models.map((m) => m.model)).toEqual([m1, m2, m3]);
    expect(models[0]!.model).toBe(m1);
    expect(models[2]!.model).toBe(m3);
    for (const wrapper of models) expect(wrapper.metadata).toBeInstanceOf(Map);
  });

  it('a strategy object with route() is accepted as well as a bare function', async () => {
    const b = fakeModel('b');
    const strategy = { route: jest.fn<PickFn>((models) => models[1]) };
    const router = new ModelRouter({ routes: [fakeModel('a'), b], routingStrategy: strategy });
    const response = await router.chat(request());
    expect(strategy.route).toHaveBeenCalledTimes(1);
    expect(response.aiMessage.text).toBe('b');
  });

  it('passes the call signal and attributes on to the model that is called', async () => {
    const a = fakeModel('a');
    const b = fakeModel('b');
    const router = new ModelRouter({
      routes: [a, b],
      routingStrategy: (models) => models[1],
    });
    const req = request();
    const signal = new AbortController().signal;
    await router.chat(req, { signal, attributes: { chat_model_route: 'r', tenant: 't' } });
    expect(a.chat).not.toHaveBeenCalled();
    expect(b.chat).toHaveBeenCalledTimes(1);
    const [seenRequest, options] = b.chat.mock.calls[0]!;
    expect(seenRequest).toEqual(req);
    expect(options?.signal).toBe(signal);
    expect(options?.attributes).toMatchObject({ chat_model_route: 'r', tenant: 't' });
  });

  it('the strategy gets the caller request', async () => {
    const pick = jest.fn<PickFn>(first);
    const router = new ModelRouter({ routes: [fakeModel()], routingStrategy: pick });
    const req = request();
    await router.chat(req);
    expect(pick.mock.calls[0]![1]).toEqual(req);
  });
});

describe('2.4.1 each call', () => {
  it('the strategy is asked again among the untried routes after each failure', async () => {
    const ea = new Error('a down');
    const a = failingModel(ea);
    const b = failingModel(new Error('b down'));
    const c = fakeModel('c');
    const pick = jest.fn<PickFn>(first);
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: b },
        { name: 'c', model: c },
      ],
      routingStrategy: pick,
    });
    const response = await router.chat(request());
    expect(response.aiMessage.text).toBe('c');
    expect(offered(pick)).toEqual([['a', 'b', 'c'], ['b', 'c'], ['c']]);
    expect(a.chat).toHaveBeenCalledTimes(1);
    expect(b.chat).toHaveBeenCalledTimes(1);
    expect(c.chat).toHaveBeenCalledTimes(1);
  });

  it('the next call starts again from all routes', async () => {
    const a = failingModel(new Error('a down'));
    const pick = jest.fn<PickFn>(first);
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: fakeModel('b') },
      ],
      routingStrategy: pick,
    });
    await router.chat(request());
    await router.chat(request());
    expect(offered(pick)).toEqual([['a', 'b'], ['b'], ['a', 'b'], ['b']]);
  });

  it('a strategy choosing a later route first still tries each route at most once', async () => {
    const models = {
      a: failingModel(new Error('a')),
      b: failingModel(new Error('b')),
      c: failingModel(new Error('c')),
    };
    const last = jest.fn<PickFn>((ms) => ms[ms.length - 1]);
    const router = new ModelRouter({
      routes: Object.entries(models).map(([name, model]) => ({ name, model })),
      routingStrategy: last,
    });
    const result = await outcome(router.chat(request()));
    expect(result.ok).toBe(false);
    // whether the strategy is also asked with an empty list at the end is not specified
    expect(offered(last).filter((o) => o.length > 0)).toEqual([['a', 'b', 'c'], ['a', 'b'], ['a']]);
    for (const model of Object.values(models)) expect(model.chat).toHaveBeenCalledTimes(1);
  });

  it('all attempts failed → NoMatchingModelFoundException with every error in order', async () => {
    const ea = new Error('a down');
    const eb = new TypeError('b broke');
    const ec = new Error('c down');
    const router = new ModelRouter({
      routes: [failingModel(ea), failingModel(eb), failingModel(ec)],
      routingStrategy: first,
    });
    const result = await outcome(router.chat(request()));
    expect(result.ok).toBe(false);
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect((error as NoMatchingModelFoundException).errors).toEqual([ea, eb, ec]);
    const errors = (error as NoMatchingModelFoundException).errors;
    expect(errors[0]).toBe(ea);
    expect(errors[1]).toBe(eb);
    expect(errors[2]).toBe(ec);
    expect((error as Error).message).toContain('No matching route');
  });

  it('a plain Error counts as the model failure and fails over', async () => {
    const b = fakeModel('b');
    const router = new ModelRouter({
      routes: [failingModel(new Error('plain')), b],
      routingStrategy: first,
    });
    const response = await router.chat(request());
    expect(response.aiMessage.text).toBe('b');
  });

  it('the caller aborting during a model call is not a model failure: no failover', async () => {
    const controller = new AbortController();
    const reason = { why: 'caller left' };
    const a: FakeModel = {
      chat: jest.fn<ChatFn>(
        (_request, options) =>
          new Promise((_, reject) => {
            options?.signal?.addEventListener('abort', () => reject(options.signal!.reason), {
              once: true,
            });
          }),
      ),
    };
    const b = fakeModel('b');
    const listener = jest.fn<ErrorListener>();
    const router = new ModelRouter({
      routes: [a, b],
      routingStrategy: first,
      errorListeners: [listener],
    });
    const call = outcome(router.chat(request(), { signal: controller.signal }));
    await Promise.resolve();
    await Promise.resolve();
    controller.abort(reason);
    const result = await call;
    expect(result.ok).toBe(false);
    expect(b.chat).not.toHaveBeenCalled();
    expect(listener).not.toHaveBeenCalled();
  });

  it('undefined from the strategy → defaultRoute serves', async () => {
    const a = fakeModel('a');
    const fallback = fakeModel('fallback');
    const pick = jest.fn<PickFn>(() => undefined);
    const router = new ModelRouter({ routes: [a], routingStrategy: pick, defaultRoute: fallback });
    const req = request();
    const signal = new AbortController().signal;
    const response = await router.chat(req, { signal, attributes: { k: 'v' } });
    expect(response.aiMessage.text).toBe('fallback');
    expect(a.chat).not.toHaveBeenCalled();
    expect(fallback.chat).toHaveBeenCalledTimes(1);
    expect(fallback.chat.mock.calls[0]![1]?.signal).toBe(signal);
    expect(fallback.chat.mock.calls[0]![1]?.attributes).toMatchObject({ k: 'v' });
  });

  it('defaultRoute is tried at most once per call', async () => {
    const ea = new Error('a down');
    const ed = new Error('default down');
    const a = failingModel(ea);
    const fallback = failingModel(ed);
    const pick = jest.fn<PickFn>((models) =>
      models.some((m) => m.name === 'a') ? models[0] : undefined,
    );
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: fakeModel('b') },
      ],
      routingStrategy: pick,
      defaultRoute: fallback,
    });
    const result = await outcome(router.chat(request()));
    expect(result.ok).toBe(false);
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect((error as NoMatchingModelFoundException).errors).toEqual([ea, ed]);
    expect(fallback.chat).toHaveBeenCalledTimes(1);
    expect(a.chat).toHaveBeenCalledTimes(1);

    // a new call may use the default again
    await outcome(router.chat(request()));
    expect(fallback.chat).toHaveBeenCalledTimes(2);
  });

  it('nothing to try → NoMatchingModelFoundException containing No matching route, with no errors', async () => {
    const a = fakeModel('a');
    const router = new ModelRouter({ routes: [a], routingStrategy: () => undefined });
    const result = await outcome(router.chat(request()));
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect((error as Error).message).toContain('No matching route');
    expect((error as NoMatchingModelFoundException).errors).toEqual([]);
    expect(a.chat).not.toHaveBeenCalled();
  });

  it('every error listener gets each failure event, attempts counting from 1 per call', async () => {
    const ea = new Error('a down');
    const eb = new Error('b down');
    const events1: ErrorEvent[] = [];
    const events2: ErrorEvent[] = [];
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: failingModel(ea) },
        { name: 'b', model: failingModel(eb) },
        { name: 'c', model: fakeModel('c') },
      ],
      routingStrategy: first,
      errorListeners: [(e) => events1.push(e)],
    });
    router.addErrorListener((e) => events2.push(e));
    const req = request();
    await router.chat(req);
    const expected = [
      { model: 'a', error: ea, attempt: 1, request: req },
      { model: 'b', error: eb, attempt: 2, request: req },
    ];
    expect(events1).toEqual(expected);
    expect(events2).toEqual(expected);
    expect(events1[0]!.error).toBe(ea);

    await router.chat(req);
    expect(events1.map((e) => e.attempt)).toEqual([1, 2, 1, 2]);
  });

  it('on failure: listeners get the event, then onFailure runs, then the strategy is asked again', async () => {
    const log: string[] = [];
    const ea = new Error('a down');
    const req = request();
    const strategy = {
      route: jest.fn<PickFn>((models) => {
        log.push(`route ${names(models).join(',')}`);
        return models[0];
      }),
      onFailure: jest.fn((model: ChatModelWrapper, error: unknown, r: ChatRequest) => {
        log.push(`onFailure ${model.name} ${(error as Error).message}`);
        expect(r).toEqual(req);
      }),
      onSuccess: jest.fn((model: ChatModelWrapper, response: ChatResponse) => {
        log.push(`onSuccess ${model.name} ${response.aiMessage.text}`);
      }),
    };
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: failingModel(ea) },
        { name: 'b', model: fakeModel('b-text') },
      ],
      routingStrategy: strategy,
      errorListeners: [(e) => log.push(`listener ${e.model}`)],
    });
    await router.chat(req);
    expect(log).toEqual([
      'route a,b',
      'listener a',
      'onFailure a a down',
      'route b',
      'onSuccess b b-text',
    ]);
    expect(strategy.onFailure.mock.calls[0]![1]).toBe(ea);
    expect(strategy.onFailure.mock.calls[0]![0].name).toBe('a');
    expect(strategy.onSuccess.mock.calls[0]![0].name).toBe('b');
  });
});

/** Models a (failing until healed), b, c behind a FailoverStrategy on a settable clock. */
function failoverGroup(cooldownMs?: number) {
  let now = 1_000;
  const clock = () => now;
  const strategy = new FailoverStrategy(
    cooldownMs === undefined ? { clock } : { cooldownMs, clock },
  );
  let aFails = true;
  const a: FakeModel = {
    chat: jest.fn<ChatFn>(async () => {
      if (aFails) throw new Error('a down');
      return { aiMessage: { role: 'assistant', text: 'a' } };
    }),
  };
  const b = fakeModel('b');
  const c = fakeModel('c');
  const router = new ModelRouter({
    routes: [
      { name: 'a', model: a },
      { name: 'b', model: b },
      { name: 'c', model: c },
    ],
    routingStrategy: strategy,
  });
  return {
    router,
    a,
    b,
    c,
    setNow: (t: number) => {
      now = t;
    },
    heal: () => {
      aFails = false;
    },
  };
}
describe('2.4.2 FailoverStrategy', () => {
  it('uses the first model in registration order', async () => {
    const { router, b, c, heal, a } = failoverGroup(100);
    heal();
    const response = await router.chat(request());
    expect(response.aiMessage.text).toBe('a');
    expect(a.chat).toHaveBeenCalledTimes(1);
    expect(b.chat).not.toHaveBeenCalled();
    expect(c.chat).not.toHaveBeenCalled();
  });

  it('a failure puts the model in cooldown until exactly failedAt + cooldownMs', async () => {
    const { router, a, b, setNow, heal } = failoverGroup(100);
    setNow(1_000);
    const firstResponse = await router.chat(request());
    expect(firstResponse.aiMessage.text).toBe('b');
    expect(a.chat).toHaveBeenCalledTimes(1);
    heal();

    setNow(1_050);
    expect((await router.chat(request())).aiMessage.text).toBe('b');
    setNow(1_099);
    expect((await router.chat(request())).aiMessage.text).toBe('b');
    expect(a.chat).toHaveBeenCalledTimes(1);

    setNow(1_100);
    expect((await router.chat(request())).aiMessage.text).toBe('a');
    expect(a.chat).toHaveBeenCalledTimes(2);
    expect(b.chat).toHaveBeenCalledTimes(3);
  });

  it.each<[string, number | undefined, number, number]>([
    ['cooldownMs defaults to 60 000 ms', undefined, 0, 60_000],
    ['the cooldown starts at the failure time read from the clock', 100, 5_000, 5_100],
  ])('%s', async (_, cooldownMs, failedAt, cooldownEnd) => {
    const { router, a, setNow, heal } = failoverGroup(cooldownMs);
    setNow(failedAt);
    await router.chat(request());
    heal();
    setNow(cooldownEnd - 1);
    expect((await router.chat(request())).aiMessage.text).toBe('b');
    setNow(cooldownEnd);
    expect((await router.chat(request())).aiMessage.text).toBe('a');
    expect(a.chat).toHaveBeenCalledTimes(2);
  });

  it('the cooldown is measured from the failure, not from when the call started', async () => {
    let now = 1_000;
    const strategy = new FailoverStrategy({ cooldownMs: 100, clock: () => now });
    let slowFailure = true;
    const a: FakeModel = {
      chat: jest.fn<ChatFn>(async () => {
        if (slowFailure) {
          now += 40; // the model takes 40 ms to fail
          throw new Error('a timed out');
        }
        return { aiMessage: { role: 'assistant', text: 'a' } };
      }),
    };
    const router = new ModelRouter({
      routes: [a, fakeModel('b')],
      routingStrategy: strategy,
    });
    await router.chat(request()); // a fails at 1_040
    slowFailure = false;
    now = 1_139;
    expect((await router.chat(request())).aiMessage.text).toBe('b');
    now = 1_140;
    expect((await router.chat(request())).aiMessage.text).toBe('a');
  });

  it('a model failing again after its cooldown is out for cooldownMs from the new failure', async () => {
    const { router, a, setNow, heal } = failoverGroup(100);
    setNow(1_000);
    await router.chat(request()); // a fails at 1_000
    setNow(1_100);
    expect((await router.chat(request())).aiMessage.text).toBe('b'); // a tried, fails at 1_100
    expect(a.chat).toHaveBeenCalledTimes(2);
    heal();
    setNow(1_199);
    expect((await router.chat(request())).aiMessage.text).toBe('b');
    expect(a.chat).toHaveBeenCalledTimes(2);
    setNow(1_200);
    expect((await router.chat(request())).aiMessage.text).toBe('a');
    expect(a.chat).toHaveBeenCalledTimes(3);
  });

  it('a model back from cooldown serves concurrent calls (it is no longer in cooldown)', async () => {
    let now = 1_000;
    const strategy = new FailoverStrategy({ cooldownMs: 100, clock: () => now });
    let failing = true;
    const pending: (() => void)[] = [];
    const a: FakeModel = {
      chat: jest.fn<ChatFn>(async () => {
        if (failing) throw new Error('a down');
        await new Promise<void>((resolve) => pending.push(resolve));
        return { aiMessage: { role: 'assistant', text: 'a' } };
      }),
    };
    const b = fakeModel('b');
    const router = new ModelRouter({ routes: [a, b], routingStrategy: strategy });
    await router.chat(request()); // a fails at 1_000, b answers
    failing = false;
    now = 1_100;
    const firstCall = router.chat(request());
    const secondCall = router.chat(request());
    for (let i = 0; i < 20 && pending.length < 2; i += 1) await Promise.resolve();
    for (const release of pending) release();
    const answers = await Promise.all([firstCall, secondCall]);
    expect(answers.map((r) => r.aiMessage.text)).toEqual(['a', 'a']);
    expect(b.chat).toHaveBeenCalledTimes(1);
  });

  it('a model that answers after its cooldown is used again from then on', async () => {
    const { router, a, b, setNow, heal } = failoverGroup(100);
    setNow(1_000);
    await router.chat(request());
    heal();
    setNow(1_100);
    await router.chat(request());
    setNow(1_101);
    expect((await router.chat(request())).aiMessage.text).toBe('a');
    expect(a.chat).toHaveBeenCalledTimes(3);
    expect(b.chat).toHaveBeenCalledTimes(1);
  });

  it('all models in cooldown → undefined → NoMatchingModelFoundException; no model called', async () => {
    let now = 0;
    const strategy = new FailoverStrategy({ cooldownMs: 1_000, clock: () => now });
    const a = failingModel(new Error('a'));
    const b = failingModel(new Error('b'));
    const router = new ModelRouter({ routes: [a, b], routingStrategy: strategy });
    await outcome(router.chat(request()));
    expect(a.chat).toHaveBeenCalledTimes(1);
    expect(b.chat).toHaveBeenCalledTimes(1);

    now = 500;
    const result = await outcome(router.chat(request()));
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect((error as Error).message).toContain('No matching route');
    expect(a.chat).toHaveBeenCalledTimes(1);
    expect(b.chat).toHaveBeenCalledTimes(1);
  });

  it('all models in cooldown → the group default route serves', async () => {
    let now = 0;
    const strategy = new FailoverStrategy({ cooldownMs: 1_000, clock: () => now });
    const a = failingModel(new Error('a'));
    const fallback = fakeModel('fallback');
    const router = new ModelRouter({
      routes: [a],
      routingStrategy: strategy,
      defaultRoute: fallback,
    });
    expect((await router.chat(request())).aiMessage.text).toBe('fallback');
    now = 10;
    expect((await router.chat(request())).aiMessage.text).toBe('fallback');
    expect(a.chat).toHaveBeenCalledTimes(1);
    expect(fallback.chat).toHaveBeenCalledTimes(2);
  });

  it('route() returns undefined when every offered model is in cooldown', async () => {
    let now = 0;
    const strategy = new FailoverStrategy({ cooldownMs: 1_000, clock: () => now });
    const a = failingModel(new Error('a'));
    const router = new ModelRouter({
      routes: [{ name: 'a', model: a }],
      routingStrategy: strategy,
    });
    await outcome(router.chat(request()));
    now = 999;
    const wrapper: ChatModelWrapper = { name: 'a', model: a, metadata: new Map() };
    expect(await strategy.route([wrapper], request())).toBeUndefined();
  });

  it('with a delegate, the delegate chooses among the models not in cooldown', async () => {
    let now = 0;
    const delegate = { route: jest.fn<PickFn>((models) => models[models.length - 1]) };
    const strategy = new FailoverStrategy({ cooldownMs: 1_000, clock: () => now, delegate });
    const c = failingModel(new Error('c down'));
    const b = fakeModel('b');
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: fakeModel('a') },
        { name: 'b', model: b },
        { name: 'c', model: c },
      ],
      routingStrategy: strategy,
    });
    const response = await router.chat(request());
    expect(response.aiMessage.text).toBe('b');
    now = 10;
    await router.chat(request());
    expect(offered(delegate.route)).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(c.chat).toHaveBeenCalledTimes(1);
  });

  it('a bare-function delegate is accepted', async () => {
    const delegate = jest.fn<PickFn>((models) => models[1]);
    const strategy = new FailoverStrategy({ delegate, clock: () => 0 });
    const router = new ModelRouter({
      routes: [fakeModel('a'), fakeModel('b')],
      routingStrategy: strategy,
    });
    expect((await router.chat(request())).aiMessage.text).toBe('b');
    expect(delegate).toHaveBeenCalledTimes(1);
  });
});

describe('2.4.3 LowestTokenUsageRoutingStrategy', () => {
  it('equal usage alternates first, second, first', async () => {
    const models = { first: usageModel(10), second: usageModel(10) };
    const router = new ModelRouter({
      routes: [models.first, models.second],
      routingStrategy: new LowestTokenUsageRoutingStrategy(),
    });
    expect(await servedSequence(router, models, 4)).toEqual(['first', 'second', 'first', 'second']);
  });

  it('picks the smallest accumulated totalTokens; ties go to the first registered', async () => {
    const models = { a: usageModel(100), b: usageModel(10), c: usageModel(50) };
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: models.a },
        { name: 'b', model: models.b },
        { name: 'c', model: models.c },
      ],
      routingStrategy: new LowestTokenUsageRoutingStrategy(),
    });
    // a=100 b=10 c=50 after three calls; b climbs by 10 until it ties c at 50, then wins the tie
    expect(await servedSequence(router, models, 9)).toEqual([
      'a',
      'b',
      'c',
      'b',
      'b',
      'b',
      'b',
      'b',
      'c',
    ]);
  });

  it('a response without tokenUsage counts as 0', async () => {
    const models = { quiet: usageModel(undefined), loud: usageModel(5) };
    const router = new ModelRouter({
      routes: [models.quiet, models.loud],
      routingStrategy: new LowestTokenUsageRoutingStrategy(),
    });
    expect(await servedSequence(router, models, 3)).toEqual(['quiet', 'quiet', 'quiet']);
  });

  it('each strategy instance counts its own usage', async () => {
    const m1 = { a: usageModel(10), b: usageModel(10) };
    const m2 = { a: usageModel(10), b: usageModel(10) };
    const r1 = new ModelRouter({
      routes: [m1.a, m1.b],
      routingStrategy: new LowestTokenUsageRoutingStrategy(),
    });
    const r2 = new ModelRouter({
      routes: [m2.a, m2.b],
      routingStrategy: new LowestTokenUsageRoutingStrategy(),
    });
    expect(await servedSequence(r1, m1, 1)).toEqual(['a']);
    expect(await servedSequence(r2, m2, 1)).toEqual(['a']);
  });
});

describe('2.4.4 strategy and listener errors never hide the model result', () => {
  it('an onSuccess that throws does not hide the response', async () => {
    const router = new ModelRouter({
      routes: [fakeModel('answer')],
      routingStrategy: {
        route: first,
        onSuccess: () => {
          throw new Error('bookkeeping broke');
        },
      },
    });
    expect((await router.chat(request())).aiMessage.text).toBe('answer');
  });

  it('an onSuccess that rejects does not hide the response', async () => {
    const router = new ModelRouter({
      routes: [fakeModel('answer')],
      routingStrategy: {
        route: first,
        onSuccess: async () => {
          throw new Error('async bookkeeping broke');
        },
      },
    });
    expect((await router.chat(request())).aiMessage.text).toBe('answer');
  });

  it('an onFailure that throws does not stop failover nor hide the next model answer', async () => {
    const router = new ModelRouter({
      routes: [failingModel(new Error('a down')), fakeModel('b')],
      routingStrategy: {
        route: first,
        onFailure: () => {
          throw new Error('strategy broke');
        },
      },
    });
    expect((await router.chat(request())).aiMessage.text).toBe('b');
  });

  it('an onFailure that throws does not replace the model errors', async () => {
    const ea = new Error('a down');
    const router = new ModelRouter({
      routes: [failingModel(ea)],
      routingStrategy: {
        route: first,
        onFailure: () => {
          throw new Error('strategy broke');
        },
      },
    });
    const result = await outcome(router.chat(request()));
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect((error as NoMatchingModelFoundException).errors).toEqual([ea]);
  });

  it('a listener that throws neither hides the answer nor stops the other listeners', async () => {
    const seen: string[] = [];
    const router = new ModelRouter({
      routes: [failingModel(new Error('a down')), fakeModel('b')],
      routingStrategy: first,
      errorListeners: [
        () => {
          throw new Error('listener broke');
        },
        (e) => seen.push(e.model),
      ],
    });
    expect((await router.chat(request())).aiMessage.text).toBe('b');
    expect(seen).toEqual(['model-1']);
  });

  it('a listener that throws does not replace the model errors', async () => {
    const ea = new Error('a down');
    const router = new ModelRouter({
      routes: [failingModel(ea)],
      routingStrategy: first,
      errorListeners: [
        () => {
          throw new Error('listener broke');
        },
      ],
    });
    const result = await outcome(router.chat(request()));
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect((error as NoMatchingModelFoundException).errors).toEqual([ea]);
  });
});
