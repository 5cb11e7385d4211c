import { describe, expect, it, jest } from '@jest/globals';
import { aiMessage, toolResultMessage, userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatCallOptions } from '../../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import { ROUTE_ATTRIBUTE } from '../../../../src/core/chat/call-attributes.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../../../../src/core/state/route-state-store.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { LowestTokenUsageRoutingStrategy } from '../../../../src/core/strategies/lowest-token-usage-routing-strategy.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import type { ModelRouterOptions } from '../../../../src/core/group/model-router-options.js';
import type { ModelRoutingStrategy } from '../../../../src/core/strategies/model-routing-strategy.js';
import {
  DEFAULT_SESSION_TTL_MS,
  sessionStateKey,
} from '../../../../src/core/group/session-affinity.js';
import { SESSION_ATTRIBUTE } from '../../../../src/core/chat/call-attributes.js';
import {
  answer,
  complete,
  delta,
  drain,
  fakeModel,
  manualClock,
  request,
} from '../strategies/fakes.js';

const SCOPE = 'chat';

/** A model that answers with 10 tokens and can be switched to fail. */
function switchable(name: string) {
  const model = {
    failing: false,
    calls: 0,
    chat: jest.fn(async (_request: ChatRequest, _options?: ChatCallOptions) => {
      model.calls += 1;
      if (model.failing) throw new Error(`${name} is down`);
      return answer(`answer from ${name}`, 10);
    }),
  };
  return model;
}

/**
 * A group [a, b] balanced on token usage (so without a session consecutive calls alternate),
 * bound like the Nest module binds it: a store on a manual clock and a scope.
 */
function setup(
  options: {
    strategy?: ModelRoutingStrategy;
    store?: RouteStateStore;
    router?: Partial<ModelRouterOptions>;
  } = {},
) {
  const clock = manualClock();
  const store = options.store ?? new InMemoryRouteStateStore(clock.fn);
  const a = switchable('a');
  const b = switchable('b');
  const router = new ModelRouter({
    routes: [
      { name: 'a', model: a },
      { name: 'b', model: b },
    ],
    routingStrategy: options.strategy ?? new LowestTokenUsageRoutingStrategy(),
    ...options.router,
  });
  router.bindRouteState({ store, scope: SCOPE, clock: clock.fn });
  return { clock, store, a, b, router };
}

const inSession = (session: string, extra: Record<string, unknown> = {}): ChatCallOptions => ({
  attributes: { [SESSION_ATTRIBUTE]: session, ...extra },
});

const onRoute = (route: string) => inSession('s', { [ROUTE_ATTRIBUTE]: route });

/** A streaming model that answers its name with 10 tokens. */
const streamer = (name: string) => ({
  chat: jest.fn(async () => answer(name, 10)),
  stream: async function* () {
    yield delta(name);
    yield complete(name, 10);
  },
});

const build = (options: Partial<ModelRouterOptions>) => () =>
  new ModelRouter({ routes: [fakeModel('a')], routingStrategy: (m) => m[0], ...options });

/** The text answers the calls got, in order: which model served each. */
async function served(router: ModelRouter, calls: (ChatCallOptions | undefined)[]) {
  const texts: string[] = [];
  for (const options of calls) {
    const response = await router.chat(request, options);
    texts.push(response.aiMessage.text!.replace('answer from ', ''));
  }
  return texts;
}

describe('session affinity (SESSION_ATTRIBUTE)', () => {
  it('without a session, token balancing alternates: the baseline the other tests depart from', async () => {
    const { router } = setup();
    await expect(served(router, [undefined, undefined, undefined, undefined])).resolves.toEqual([
      'a',
      'b',
      'a',
      'b',
    ]);
  });

  it('keeps a session on the model that answered it across calls, while others are balanced', async () => {
    const { router, store } = setup();
    const s1 = inSession('s1');
    const s2 = inSession('s2');
    await expect(served(router, [s1, s1, undefined, s1, s2, s2, s1])).resolves.toEqual([
      'a', // s1 pinned to a
      'a', // balancing would say b
      'b',
      'a',
      'b', // s2 starts on the lowest (a 30, b 10) and is pinned there
      'b',
      'a',
    ]);
    expect(store.getSticky(sessionStateKey(SCOPE, 's1'))).toEqual({ model: 'a' });
    expect(store.getSticky(sessionStateKey(SCOPE, 's2'))).toEqual({ model: 'b' });
  });

  it('the pin lasts sessionTtlMs after the last answer (renewed by every answer), then balancing resumes', async () => {
    const { router, clock } = setup({ router: { sessionTtlMs: 1_000 } });
    const s = inSession('s');
    await expect(served(router, [s])).resolves.toEqual(['a']);
    clock.advance(999);
    await expect(served(router, [s])).resolves.toEqual(['a']); // renews until +1999
    clock.advance(600);
    await expect(served(router, [s])).resolves.toEqual(['a']); // 1599: alive only thanks to renewal
    clock.advance(1_000); // exactly ttl after the last answer: gone
    // a has 30 tokens, b 0: without the pin the session goes to b, and is pinned there
    await expect(served(router, [s, s])).resolves.toEqual(['b', 'b']);
  });

  it('defaults to 30 minutes', async () => {
    expect(DEFAULT_SESSION_TTL_MS).toBe(30 * 60_000);
    const { router, clock } = setup();
    const s = inSession('s');
    await served(router, [s]);
    clock.advance(DEFAULT_SESSION_TTL_MS - 1);
    await expect(served(router, [s])).resolves.toEqual(['a']);
    clock.advance(DEFAULT_SESSION_TTL_MS);
    await expect(served(router, [s])).resolves.toEqual(['b']);
  });

  it('the pinned model failing in this call fails over normally, and the session is re-pinned to the model that answered', async () => {
    const strategy = new FailoverStrategy({
      cooldownMs: 10_000,
      delegate: new LowestTokenUsageRoutingStrategy(),
    });
    const { router, a, b, clock, store } = setup({ strategy });
    const s = inSession('s');
    await expect(served(router, [s])).resolves.toEqual(['a']);
    a.failing = true;
    await expect(served(router, [s])).resolves.toEqual(['b']);
    expect(a.calls).toBe(2);
    expect(store.getSticky(sessionStateKey(SCOPE, 's'))).toEqual({ model: 'b' });
    a.failing = false;
    clock.advance(10_000); // a's cooldown is over: a is available again, and lowest in usage
    await expect(served(router, [s, undefined])).resolves.toEqual(['b', 'a']);
    expect(b.calls).toBe(2);
  });

  it('an open circuit on the pinned model: the call goes elsewhere without trying it, and re-pins', async () => {
    const strategy = new FailoverStrategy({ cooldownMs: 10_000 });
    const { router, a, store } = setup({ strategy });
    const s = inSession('s');
    await expect(served(router, [s])).resolves.toEqual(['a']);
    a.failing = true;
    await expect(served(router, [undefined])).resolves.toEqual(['b']); // opens a's circuit
    expect(strategy.circuitOf('a').state).toBe('open');
    const callsBefore = a.calls;
    await expect(served(router, [s])).resolves.toEqual(['b']);
    expect(a.calls).toBe(callsBefore);
    expect(store.getSticky(sessionStateKey(SCOPE, 's'))).toEqual({ model: 'b' });
  });

  it('the same session is pinned per route: different routes keep their own model', async () => {
    const { router, store } = setup();
    await expect(
      served(router, [onRoute('r1'), onRoute('r2'), onRoute('r1'), onRoute('r2'), onRoute('r1')]),
    ).resolves.toEqual(['a', 'b', 'a', 'b', 'a']);
    expect(store.getSticky(sessionStateKey(SCOPE, 's', 'r1'))).toEqual({
      route: 'r1',
      model: 'a',
    });
    expect(store.getSticky(sessionStateKey(SCOPE, 's', 'r2'))).toEqual({
      route: 'r2',
      model: 'b',
    });
    // a session without a route is a third, independent pin
    expect(store.getSticky(sessionStateKey(SCOPE, 's'))).toBeUndefined();
  });

  it('route names and session keys cannot collide into one store key', () => {
    expect(sessionStateKey(SCOPE, 'b:c', 'a')).not.toBe(sessionStateKey(SCOPE, 'c', 'a:b'));
    expect(sessionStateKey(SCOPE, 'x', 'r')).not.toBe(sessionStateKey(SCOPE, 'r:x'));
  });

  it('without a session (or with a blank or non-string one) the store is never consulted', async () => {
    const store = new InMemoryRouteStateStore();
    const getSticky = jest.spyOn(store, 'getSticky');
    const setSticky = jest.spyOn(store, 'setSticky');
    const { router } = setup({ store });
    const blank = { attributes: { [SESSION_ATTRIBUTE]: '  ' } };
    const numeric = { attributes: { [SESSION_ATTRIBUTE]: 42 } };
    await expect(served(router, [undefined, blank, numeric, {}])).resolves.toEqual([
      'a',
      'b',
      'a',
      'b',
    ]);
    expect(getSticky).not.toHaveBeenCalled();
    expect(setSticky).not.toHaveBeenCalled();
  });

  it('passes the session attribute on to the model like every other attribute', async () => {
    const { router, a } = setup();
    await router.chat(request, inSession('s'));
    expect(a.chat.mock.calls[0]![1]?.attributes).toEqual({ [SESSION_ATTRIBUTE]: 's' });
  });

  it('a store that throws or rejects never breaks the call: routing just ignores the session', async () => {
    const throwing = new InMemoryRouteStateStore();
    throwing.getSticky = () => {
      throw new Error('store down');
    };
    throwing.setSticky = () => {
      throw new Error('store down');
    };
    const { router: first } = setup({ store: throwing });
    const s = inSession('s');
    await expect(served(first, [s, s, s])).resolves.toEqual(['a', 'b', 'a']);

    const rejecting = new InMemoryRouteStateStore();
    rejecting.setSticky = () => Promise.reject(new Error('write lost'));
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { router: second } = setup({ store: rejecting });
      await expect(served(second, [s, s])).resolves.toEqual(['a', 'b']);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('a pin naming a model the group does not have (or another route) is ignored', async () => {
    const { router, store } = setup();
    await store.setSticky(sessionStateKey(SCOPE, 's'), { model: 'gone' }, 60_000);
    await store.setSticky(sessionStateKey(SCOPE, 't', 'r1'), { route: 'r2', model: 'b' }, 60_000);
    await expect(
      served(router, [inSession('s'), inSession('t', { [ROUTE_ATTRIBUTE]: 'r1' })]),
    ).resolves.toEqual(['a', 'b']);
    expect(store.getSticky(sessionStateKey(SCOPE, 's'))).toEqual({ model: 'a' });
  });

  it('a tool loop returns to its model even when the session is pinned elsewhere', async () => {
    const toolAnswer = {
      aiMessage: aiMessage({ toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{}' }] }),
    };
    const a = fakeModel('a', answer('from a'));
    const b = fakeModel('b', toolAnswer, answer('done by b'));
    const store = new InMemoryRouteStateStore();
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: b },
      ],
      // b for a fresh call; for a preferred model, that model
      routingStrategy: (models) => (models.length === 1 ? models[0] : models[1]),
      sessionStore: store,
      sessionScope: SCOPE,
    });
    const toolRound = await router.chat(request);
    await store.setSticky(sessionStateKey(SCOPE, 's'), { model: 'a' }, 60_000);
    const followUp: ChatRequest = {
      messages: [userMessage('Hello'), toolRound.aiMessage, toolResultMessage('c1', '42')],
    };
    await expect(router.chat(followUp, inSession('s'))).resolves.toEqual(answer('done by b'));
    expect(a.chat).not.toHaveBeenCalled();
    expect(store.getSticky(sessionStateKey(SCOPE, 's'))).toEqual({ model: 'b' });
  });

  it('a stream is routed and pinned the same way', async () => {
    const clock = manualClock();
    const store = new InMemoryRouteStateStore(clock.fn);
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: streamer('a') },
        { name: 'b', model: streamer('b') },
      ],
      routingStrategy: new LowestTokenUsageRoutingStrategy(),
    });
    router.bindRouteState({ store, scope: SCOPE });
    const first = await drain(router.stream(request, inSession('s')));
    const second = await drain(router.stream(request, inSession('s')));
    expect([first.events[0], second.events[0]]).toEqual([delta('a'), delta('a')]);
    expect(store.getSticky(sessionStateKey(SCOPE, 's'))).toEqual({ model: 'a' });
  });

  it('the default route answering does not pin the session', async () => {
    const store = new InMemoryRouteStateStore();
    const router = new ModelRouter({
      routes: [{ name: 'a', model: fakeModel('a') }],
      routingStrategy: () => undefined,
      defaultRoute: { name: 'fallback', model: fakeModel('fallback') },
      sessionStore: store,
      sessionScope: SCOPE,
    });
    await router.chat(request, inSession('s'));
    expect(store.getSticky(sessionStateKey(SCOPE, 's'))).toBeUndefined();
  });

  it('an explicit sessionStore and sessionScope are kept when the Nest module binds its own', async () => {
    const own = new InMemoryRouteStateStore();
    const bound = new InMemoryRouteStateStore();
    const router = new ModelRouter({
      routes: [{ name: 'a', model: fakeModel('a') }],
      routingStrategy: (models) => models[0],
      sessionStore: own,
      sessionScope: 'mine',
    });
    router.bindRouteState({ store: bound, scope: 'module' });
    await router.chat(request, inSession('s'));
    expect(own.getSticky(sessionStateKey('mine', 's'))).toEqual({ model: 'a' });
    expect(bound.getSticky(sessionStateKey('module', 's'))).toBeUndefined();
  });

  it('rejects bad session options by name', () => {
    for (const sessionTtlMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5' as never]) {
      expect(build({ sessionTtlMs })).toThrow(InvalidConfigurationException);
      expect(build({ sessionTtlMs })).toThrow(/sessionTtlMs/);
    }
    expect(build({ sessionStore: {} as never })).toThrow(/sessionStore/);
    expect(build({ sessionScope: ' ' })).toThrow(/sessionScope/);
  });
});
