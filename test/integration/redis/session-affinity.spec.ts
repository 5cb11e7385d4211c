import { beforeEach, describe, expect, it } from '@jest/globals';
import type { ChatCallOptions, ChatModel } from '../../../src/core/chat/chat-model.js';
import { userMessage } from '../../../src/core/chat/messages.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { ROUTE_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import type { RouteStateStore } from '../../../src/core/state/route-state-store.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import type { ModelRoutingStrategy } from '../../../src/core/strategies/model-routing-strategy.js';
import { sessionStateKey } from '../../../src/core/group/session-affinity.js';
import { SESSION_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import type { RedisRouteStateStore } from '../../../src/redis/redis-route-state-store.js';
import { useRedisStores, waitFor } from './redis-fixtures.js';

const SCOPE = 'support/simple';
const ROUTE = 'simple';
const COOLDOWN_MS = 60_000;
const request = { messages: [userMessage('hi')] };

/** A provider model as one replica sees it: answers with its name, or fails while `failing`. */
class ProviderModel implements ChatModel {
  failing = false;
  calls = 0;
  constructor(readonly name: string) {}

  async chat(): Promise<ChatResponse> {
    this.calls += 1;
    if (this.failing) throw new Error(`${this.name} answered 503`);
    return { aiMessage: { role: 'assistant', text: this.name }, tokenUsage: { totalTokens: 10 } };
  }
}

/** One replica: its own ModelRouter over [p, q], bound to its own Redis store like Nest binds it. */
function replica(store: RouteStateStore, strategy: ModelRoutingStrategy, clock: () => number) {
  const p = new ProviderModel('p');
  const q = new ProviderModel('q');
  const router = new ModelRouter({
    routes: [
      { name: 'p', model: p },
      { name: 'q', model: q },
    ],
    routingStrategy: strategy,
  });
  router.bindRouteState({ store, scope: SCOPE, clock });
  const ask = async (session?: string) => {
    const attributes: Record<string, unknown> = { [ROUTE_ATTRIBUTE]: ROUTE };
    if (session !== undefined) attributes[SESSION_ATTRIBUTE] = session;
    const options: ChatCallOptions = { attributes };
    return (await router.chat(request, options)).aiMessage.text;
  };
  return { p, q, router, ask };
}

/** Waits (bounded poll) until `store` shows the session pinned to `model`. */
function pinSeen(store: RedisRouteStateStore, session: string, model: string) {
  return waitFor(`the pin of '${session}' on '${model}'`, () => {
    const pin = store.getSticky(sessionStateKey(SCOPE, session, ROUTE));
    return pin?.model === model && pin.route === ROUTE;
  });
}

const env = useRedisStores();
let clock: { now: number };
const now = () => clock.now;

beforeEach(() => {
  clock = { now: Date.now() };
});

describe('session affinity across two replicas sharing a RedisRouteStateStore', () => {
  it('a session pinned on replica A is honoured on replica B', async () => {
    const storeA = await env.stores.open({ clock: now });
    const storeB = await env.stores.open({ clock: now });
    // the replicas' own strategies disagree: A picks the last model, B the first
    const a = replica(storeA, { route: (models) => models.at(-1) }, now);
    const b = replica(storeB, { route: (models) => models[0] }, now);

    await expect(a.ask('s1')).resolves.toBe('q');
    await pinSeen(storeB, 's1', 'q');

    await expect(b.ask('s1')).resolves.toBe('q');
    await expect(b.ask()).resolves.toBe('p'); // without the session, B's own choice
    await expect(b.ask('other')).resolves.toBe('p');
    await pinSeen(storeA, 'other', 'p');
    await expect(a.ask('other')).resolves.toBe('p');
    expect([b.q.calls, b.p.calls, a.p.calls]).toEqual([1, 2, 1]);
  });

  it('when the pinned model fails on B, B fails over, re-pins, and A follows the new pin', async () => {
    const storeA = await env.stores.open({ clock: now });
    const storeB = await env.stores.open({ clock: now });
    const a = replica(storeA, new FailoverStrategy({ cooldownMs: COOLDOWN_MS }), now);
    const b = replica(storeB, new FailoverStrategy({ cooldownMs: COOLDOWN_MS }), now);

    await expect(a.ask('s1')).resolves.toBe('p');
    await pinSeen(storeB, 's1', 'p');

    b.p.failing = true;
    await expect(b.ask('s1')).resolves.toBe('q');
    expect(b.p.calls).toBe(1); // the pinned model was tried first, then the call failed over
    await pinSeen(storeA, 's1', 'q');

    await expect(a.ask('s1')).resolves.toBe('q');
    expect(a.p.calls).toBe(1); // only the first call: the session moved with B's answer

    // p's cooldown ends: p serves again, and the session stays where it is now
    clock.now += COOLDOWN_MS;
    await expect(a.ask()).resolves.toBe('p');
    await expect(a.ask('s1')).resolves.toBe('q');
    await expect(b.ask('s1')).resolves.toBe('q');
  });

  it("an open circuit seen through Redis sends B's pinned session elsewhere without trying the model", async () => {
    const storeA = await env.stores.open({ clock: now });
    const storeB = await env.stores.open({ clock: now });
    const strategyB = new FailoverStrategy({ cooldownMs: COOLDOWN_MS });
    const a = replica(storeA, new FailoverStrategy({ cooldownMs: COOLDOWN_MS }), now);
    const b = replica(storeB, strategyB, now);

    await expect(b.ask('s1')).resolves.toBe('p');
    a.p.failing = true;
    await expect(a.ask()).resolves.toBe('q'); // opens p's circuit, shared with B
    await waitFor("B to see p's circuit open", () => strategyB.circuitOf('p').state === 'open');

    await expect(b.ask('s1')).resolves.toBe('q');
    expect(b.p.calls).toBe(1);
    expect(storeB.getSticky(sessionStateKey(SCOPE, 's1', ROUTE))?.model).toBe('q');
  });
});
