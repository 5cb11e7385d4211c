import { describe, expect, it } from '@jest/globals';
import type { ChatCallOptions } from '../../../../src/core/chat/chat-model.js';
import { userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { wrapModel } from '../../../../src/core/chat/chat-model-wrapper.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { LowestTokenUsageRoutingStrategy } from '../../../../src/core/strategies/lowest-token-usage-routing-strategy.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { estimateRequestTokens } from '../../../../src/core/cost/token-estimate.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { answer, deferred, fakeModel, request, type Deferred } from './fakes.js';

/** A model whose answers are released by the test, so many calls can be in flight at once. */
function heldModel(name: string) {
  const pending: { request: ChatRequest; done: Deferred<ChatResponse> }[] = [];
  return {
    name,
    pending,
    chat(req: ChatRequest, _options?: ChatCallOptions): Promise<ChatResponse> {
      const done = deferred<ChatResponse>();
      pending.push({ request: req, done });
      return done.promise;
    },
  };
}

type HeldModel = ReturnType<typeof heldModel>;

/** A router over held models of these names, in order, and those models. */
function heldRouter(names: string[], routingStrategy: LowestTokenUsageRoutingStrategy) {
  const models = names.map(heldModel);
  const router = new ModelRouter({
    routes: models.map((model) => ({ name: model.name, model })),
    routingStrategy,
  });
  return { router, models };
}

/** The estimated tokens of the calls a model holds. */
const heldTokens = (model: HeldModel) =>
  model.pending.reduce((sum, call) => sum + estimateRequestTokens(call.request), 0);

/** Answers every call the models hold with `response`. */
function releaseAll(models: HeldModel[], response: ChatResponse): void {
  for (const model of models) for (const call of model.pending) call.done.resolve(response);
}

/** Routes answering with their name and `tokens[name]` total tokens on every answer. */
const usageRoutes = (tokens: Record<string, number>) =>
  Object.entries(tokens).map(([name, total]) => ({
    name,
    model: fakeModel(name, answer(name, total)),
  }));

/** Which model (by its answer) served each of `calls` calls made one after another. */
async function servedBy(router: ModelRouter, calls: number): Promise<string[]> {
  const served: string[] = [];
  for (let i = 0; i < calls; i++) served.push((await router.chat(request)).aiMessage.text!);
  return served;
}

/** Lets every call started so far reach its model. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('2.4.3 lowest token usage', () => {
  it('picks the model with the smallest accumulated totalTokens', async () => {
    const router = new ModelRouter({
      routes: usageRoutes({ a: 100, b: 30 }),
      routingStrategy: new LowestTokenUsageRoutingStrategy(),
    });
    // a: 100 after the first call; b takes over until it has used more (30, 60, 90, 120)
    expect(await servedBy(router, 6)).toEqual(['a', 'b', 'b', 'b', 'b', 'a']);
  });

  it('missing usage counts as 0, and ties go to the first registered', async () => {
    const strategy = new LowestTokenUsageRoutingStrategy();
    const models = [wrapModel('a', fakeModel('a')), wrapModel('b', fakeModel('b'))];
    expect((await strategy.route(models, request))?.name).toBe('a');
    strategy.onSuccess(models[0]!, answer('no usage'), request);
    expect((await strategy.route(models, request))?.name).toBe('a');
    expect(strategy.tokensOf('a')).toBe(0);
  });

  it('equal usage alternates first, second, first', async () => {
    const router = new ModelRouter({
      routes: usageRoutes({ first: 10, second: 10 }),
      routingStrategy: new LowestTokenUsageRoutingStrategy(),
    });
    expect(await servedBy(router, 5)).toEqual(['first', 'second', 'first', 'second', 'first']);
  });

  it('counts only totalTokens: a usage without a total counts 0 (the contract)', async () => {
    const strategy = new LowestTokenUsageRoutingStrategy();
    const model = wrapModel('a', fakeModel('a'));
    strategy.onSuccess(
      model,
      {
        aiMessage: { role: 'assistant', text: 'x' },
        tokenUsage: { inputTokens: 7, outputTokens: 5 },
      },
      request,
    );
    expect(strategy.tokensOf('a')).toBe(0);
    strategy.onSuccess(
      model,
      { aiMessage: { role: 'assistant', text: 'x' }, tokenUsage: { totalTokens: 12 } },
      request,
    );
    expect(strategy.tokensOf('a')).toBe(12);
  });
});

describe('token reservations under concurrency', () => {
  it('200 concurrent requests over two equal models stay balanced within 10 %', async () => {
    const { router, models } = heldRouter(['a', 'b'], new LowestTokenUsageRoutingStrategy());
    const [a, b] = models;
    const prompts = Array.from({ length: 200 }, (_, i) => ({
      messages: [userMessage('x'.repeat(40 + ((i * 37) % 400)))],
    }));
    const calls = prompts.map((prompt) => router.chat(prompt));
    await settle();
    expect(a.pending.length + b.pending.length).toBe(200);
    expect(Math.abs(a.pending.length - b.pending.length)).toBeLessThanOrEqual(20);
    expect(
      Math.abs(heldTokens(a) - heldTokens(b)) / Math.max(heldTokens(a), heldTokens(b)),
    ).toBeLessThan(0.1);
    releaseAll(models, answer('ok', 10));
    await Promise.all(calls);
  });

  it('three equal models with identical prompts get the same share', async () => {
    const { router, models } = heldRouter(['a', 'b', 'c'], new LowestTokenUsageRoutingStrategy());
    const calls = Array.from({ length: 201 }, () => router.chat(request));
    await settle();
    expect(models.map((model) => model.pending.length)).toEqual([67, 67, 67]);
    releaseAll(models, answer('ok'));
    await Promise.all(calls);
  });

  it('without a call context (used on its own) nothing is reserved: the seed behaviour', async () => {
    const strategy = new LowestTokenUsageRoutingStrategy();
    const models = [wrapModel('a', fakeModel('a')), wrapModel('b', fakeModel('b'))];
    const picks = await Promise.all(
      Array.from({ length: 10 }, async () => (await strategy.route(models, request))?.name),
    );
    expect(new Set(picks)).toEqual(new Set(['a']));
  });

  it('success reconciles the reservation with the real usage', async () => {
    const strategy = new LowestTokenUsageRoutingStrategy({ estimateTokens: () => 500 });
    const {
      router,
      models: [a],
    } = heldRouter(['a'], strategy);
    const call = router.chat(request);
    await settle();
    expect(strategy.tokensOf('a')).toBe(0); // reserved, not used yet
    a.pending[0]!.done.resolve(answer('done', 42));
    await call;
    expect(strategy.tokensOf('a')).toBe(42);
    // nothing left reserved: the next request compares real usage only
    const b = wrapModel('b', fakeModel('b'));
    strategy.onSuccess(b, answer('x', 41), request);
    expect((await strategy.route([...router.models(), b], request))?.name).toBe('b');
  });

  it('a failure releases the reservation', async () => {
    const strategy = new LowestTokenUsageRoutingStrategy({ estimateTokens: () => 1_000 });
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: fakeModel('a', new Error('a is down')) },
        { name: 'b', model: fakeModel('b', answer('b', 5)) },
      ],
      routingStrategy: strategy,
    });
    await router.chat(request);
    expect(strategy.tokensOf('a')).toBe(0);
    expect(strategy.tokensOf('b')).toBe(5);
    // a carries no leftover reservation: with 0 used it is the lowest again
    expect((await strategy.route(router.models(), request))?.name).toBe('a');
  });

  it('balances on reservations even when the store shows a delta only later', async () => {
    const store = laggingTokenStore();
    const { router, models } = heldRouter(
      ['a', 'b'],
      new LowestTokenUsageRoutingStrategy({ store }),
    );
    const [a, b] = models;
    const calls = Array.from({ length: 100 }, () => router.chat(request));
    await settle();
    expect([a.pending.length, b.pending.length]).toEqual([50, 50]);
    releaseAll(models, answer('ok', 3));
    await Promise.all(calls);
    await settle();
    expect(store.getTokens([...store.keys()].find((k) => k.endsWith(':a'))!)).toBe(150);
  });
});

describe('LowestTokenUsageRoutingStrategy state and inspection', () => {
  it('inspectModels lists every model as available with its usage', async () => {
    const strategy = new LowestTokenUsageRoutingStrategy();
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: fakeModel('a', answer('a', 11)) },
        { name: 'b', model: fakeModel('b') },
      ],
      routingStrategy: strategy,
    });
    await router.chat(request);
    expect(router.inspectModels()).toEqual([
      { model: 'a', state: 'available', failures: 0, tokens: 11 },
      { model: 'b', state: 'available', failures: 0, tokens: 0 },
    ]);
  });

  it('counts in the bound store under `${scope}:${model}`', () => {
    const store = new InMemoryRouteStateStore();
    const strategy = new LowestTokenUsageRoutingStrategy();
    strategy.bindRouteState({ store, scope: 'default/simple' });
    strategy.onSuccess(wrapModel('a', fakeModel('a')), answer('x', 9), request);
    expect(store.getTokens('default/simple:a')).toBe(9);
  });

  it('takes a reserved sum below zero (a release seen before its reservation) as none', () => {
    // A shared store can show that for a moment: the reservation was counted while Redis was
    // away and reaches it after its release. `a` has usage and must not look idle.
    const store = new InMemoryRouteStateStore();
    store.addTokens('s:a', 20);
    store.addTokens('s:a:reserved', -110);
    const strategy = new LowestTokenUsageRoutingStrategy({ store, scope: 's' });
    const models = [wrapModel('a', fakeModel('a')), wrapModel('b', fakeModel('b'))];
    expect(strategy.route(models, request)?.name).toBe('b');
  });

  it('as FailoverStrategy’s delegate: balances the healthy models and shows tokens in inspection', async () => {
    const failover = new FailoverStrategy({ delegate: new LowestTokenUsageRoutingStrategy() });
    const router = new ModelRouter({
      routes: [
        ...usageRoutes({ a: 10, b: 10 }),
        { name: 'c', model: fakeModel('c', new Error('c is down')) },
      ],
      routingStrategy: failover,
    });
    expect(await servedBy(router, 4)).toEqual(['a', 'b', 'a', 'b']);
    expect(router.inspectModels().map((s) => [s.model, s.state, s.tokens])).toEqual([
      ['a', 'available', 20],
      ['b', 'available', 20],
      ['c', 'cooldown', 0], // tried once when it was lowest, then cooled down
    ]);
  });

  it('rejects an estimator that is not a function', () => {
    expect(() => new LowestTokenUsageRoutingStrategy({ estimateTokens: 5 as never })).toThrow(
      /estimateTokens/,
    );
  });

  it('the default estimate is prompt characters / 4 plus maxOutputTokens', () => {
    expect(
      estimateRequestTokens({
        messages: [userMessage('x'.repeat(40))],
        parameters: { maxOutputTokens: 100 },
      }),
    ).toBe(110);
    expect(estimateRequestTokens({ messages: [] })).toBe(1);
  });
});

/** A store whose token counters change only when the write "reaches the server", a tick later. */
function laggingTokenStore() {
  const inner = new InMemoryRouteStateStore();
  const keys = new Set<string>();
  const store = Object.create(inner) as InMemoryRouteStateStore & { keys(): Set<string> };
  store.addTokens = async (key, delta) => {
    keys.add(key);
    await new Promise((resolve) => setImmediate(resolve));
    return inner.addTokens(key, delta);
  };
  store.keys = () => keys;
  return store;
}
