import { describe, expect, it } from '@jest/globals';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { userMessage } from '../../../src/core/chat/messages.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { BudgetLedger } from '../../../src/core/budget/budget-ledger.js';
import { MODEL_PROFILE } from '../../../src/core/cost/model-profile.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { LeastBusyBalancer } from '../../../src/core/strategies/balancers/least-busy-balancer.js';
import type { RouteStateStore } from '../../../src/core/state/route-state-store.js';
import { waitFor, type StoreSet } from './redis-fixtures.js';

const MINUTE = 60_000;
// a fixed minute in the middle of a window, so the test never straddles two
const NOW = MINUTE * 30_000_000 + 10_000;
const fixedClock = () => NOW;
const clock = fixedClock;

export function answerWith(text: string): ChatResponse {
  return {
    aiMessage: { role: 'assistant', text },
    // 0.000137 USD at 1 + 3 USD / M: not a round float, so a float sum would drift
    tokenUsage: { inputTokens: 17, outputTokens: 40, totalTokens: 57 },
  };
}

/** One replica's group over a limited model (rpm 37) and a spare, on its own store. */
export function replica(store: RouteStateStore, ledger: BudgetLedger, at = fixedClock) {
  const served = { limited: 0, spare: 0 };
  const model = (name: 'limited' | 'spare') => ({
    chat: async () => {
      served[name] += 1;
      await new Promise((resolve) => setImmediate(resolve));
      return answerWith(name);
    },
  });
  const router = new ModelRouter({
    routes: [
      {
        name: 'limited',
        model: model('limited'),
        metadata: [[MODEL_PROFILE, { limits: { rpm: 37 }, pricing: { input: 1, output: 3 } }]],
      },
      {
        name: 'spare',
        model: model('spare'),
        metadata: [[MODEL_PROFILE, { pricing: { input: 1, output: 3 } }]],
      },
    ],
    routingStrategy: new FailoverStrategy({ clock: at }),
    budgets: ledger,
  });
  router.bindRouteState({ store, scope: 'group', clock: at });
  return { router, served };
}

/** A sketch's counts by bucket. */
function bucketsOf(counts: readonly (readonly [number, number])[] | undefined) {
  return new Map(counts ?? []);
}

/**
 * What two replicas share through Redis, on any topology: the same tests run on one node
 * (redis-shared-counters.spec.ts), on a Redis Cluster and on a Sentinel group.
 */
export function describeSharedState(topology: string, env: { readonly stores: StoreSet }): void {
  describe(`shared state across two RedisRouteStateStores (${topology})`, () => {
    it('holds rpm exactly over 200 concurrent calls on two replicas, and adds spend up exactly', async () => {
      const one = await env.stores.open({ clock });
      const two = await env.stores.open({ clock });
      const budgets = [{ name: 'all', limitUsd: 100, period: '1d' as const }];
      const ledgers = [
        new BudgetLedger(budgets, { store: one, clock }),
        new BudgetLedger(budgets, { store: two, clock }),
      ];
      const replicas = [replica(one, ledgers[0]!), replica(two, ledgers[1]!)];

      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          replicas[i % 2]!.router.chat({ messages: [userMessage('hi')] }),
        ),
      );
      const limited = replicas[0]!.served.limited + replicas[1]!.served.limited;
      expect(limited).toBe(37);
      expect(answers.filter((a) => a.aiMessage.text === 'limited')).toHaveLength(37);
      // whichever replica's requests Redis read first got the minute's slots; none beyond 37
      expect(replicas[0]!.served.spare + replicas[1]!.served.spare).toBe(163);

      // spend is counted without waiting for the answers; both stores converge on the exact sum
      const expected = 200 * 0.000137;
      await waitFor('the spend of both replicas', () =>
        ledgers.every((ledger) => Math.abs(ledger.spentUsd('all') - expected) < 1e-12),
      );
      expect(ledgers[0]!.spentUsd('all')).toBe(Number(((200 * 137_000) / 1e9).toFixed(9)));
    });

    it('replicas taking turns share one minute of rpm', async () => {
      const one = await env.stores.open({ clock });
      const two = await env.stores.open({ clock });
      const ledger = new BudgetLedger([], { clock });
      const replicas = [replica(one, ledger), replica(two, ledger)];
      expect([one.isShared(), two.isShared()]).toEqual([true, true]);
      for (let i = 0; i < 60; i++)
        await replicas[i % 2]!.router.chat({ messages: [userMessage('hi')] });
      expect(replicas.map((r) => r.served.limited)).toEqual([19, 18]);
    });

    it("a replica that never spent sees another replica's spend on refresh", async () => {
      const one = await env.stores.open({ clock });
      const two = await env.stores.open({ clock });
      const budgets = [{ name: 'shared', limitUsd: 1, period: '1h' as const }];
      const spender = new BudgetLedger(budgets, { store: one, clock });
      const watcher = new BudgetLedger(budgets, { store: two, clock });
      expect(watcher.spentUsd('shared')).toBe(0);
      await spender.charge({ model: 'm' }, 0.25);
      await waitFor('the spend on the other replica', () => watcher.spentUsd('shared') === 0.25);
      expect(watcher.exceeded({ model: 'm' })).toBeUndefined();
      await spender.charge({ model: 'm' }, 0.75);
      await waitFor('the budget closed on the other replica', () =>
        watcher.exceeded({ model: 'm' }),
      );
    });

    it("latency sketches add every replica's samples and forget by generations", async () => {
      const one = await env.stores.open({ clock });
      const two = await env.stores.open({ clock });
      expect(await two.mergeSketch('latency:m:first-token', [], 256)).toEqual([]);
      await one.mergeSketch('latency:m:first-token', [[10, 300]], 256); // a full generation
      const merged = bucketsOf(await two.mergeSketch('latency:m:first-token', [[20, 5]], 256));
      expect([merged.get(10), merged.get(20)]).toEqual([300, 5]);
      // 5 + 251 fill the next generation: the first one (300 in bucket 10) is dropped
      const after = bucketsOf(await one.mergeSketch('latency:m:first-token', [[30, 251]], 256));
      expect([after.get(10), after.get(20), after.get(30)]).toEqual([undefined, 5, 251]);
    });

    it('a limit refused by Redis is not counted locally either', async () => {
      const one = await env.stores.open({ clock });
      const two = await env.stores.open({ clock });
      const window = { windowMs: MINUTE, now: NOW, limit: 2 };
      expect(await one.addToWindow('k', 1, window)).toEqual({ ok: true, total: 1 });
      expect(await two.addToWindow('k', 1, window)).toEqual({ ok: true, total: 2 });
      expect(await one.addToWindow('k', 1, window)).toEqual({ ok: false, total: 2 });
      expect(one.getWindow('k', window)).toBe(2);
      expect(one.getWindow('k', { windowMs: MINUTE, now: NOW + MINUTE })).toBe(0);
    });

    it('least-busy counts in-flight calls across replicas; latency gauges reach the other replica', async () => {
      const one = await env.stores.open({ clock });
      const two = await env.stores.open({ clock });
      const models = [
        { name: 'a', model: { chat: async () => answerWith('a') }, metadata: new Map() },
        { name: 'b', model: { chat: async () => answerWith('b') }, metadata: new Map() },
      ];
      const first = new LeastBusyBalancer({ store: one, scope: 'g' });
      const second = new LeastBusyBalancer({ store: two, scope: 'g' });
      expect(
        (first.route(models, { messages: [] }, { attributes: {}, attempt: 1 }) as { name: string })
          .name,
      ).toBe('a');
      await waitFor(
        'the other replica to see the in-flight call',
        () => second.inFlight('a') === 1,
      );
      expect(
        (second.route(models, { messages: [] }, { attributes: {}, attempt: 1 }) as { name: string })
          .name,
      ).toBe('b');

      one.setGauge('g:latency', 123, MINUTE);
      await waitFor('the gauge on the other replica', () => two.getGauge('g:latency') === 123);
    });

    it('a failure through one router opens the circuit for the other; stickies and tokens are shared', async () => {
      const one = await env.stores.open();
      const two = await env.stores.open();
      const calls = { primary: 0, backup: 0 };
      const router = (store: RouteStateStore) => {
        const r = new ModelRouter({
          routes: [
            {
              name: 'primary',
              model: {
                chat: async () => {
                  calls.primary += 1;
                  throw new ProviderException('down', {
                    kind: 'transient',
                    provider: 'p',
                    status: 503,
                  });
                },
              },
            },
            {
              name: 'backup',
              model: {
                chat: async () => {
                  calls.backup += 1;
                  return answerWith('backup');
                },
              },
            },
          ],
          routingStrategy: new FailoverStrategy({ cooldownMs: MINUTE }),
        });
        r.bindRouteState({ store, scope: 'circuit-test' });
        return r;
      };
      const [first, second] = [router(one), router(two)];
      expect((await first.chat({ messages: [userMessage('hi')] })).aiMessage.text).toBe('backup');
      const primaryCalls = calls.primary;
      expect(primaryCalls).toBeGreaterThan(0);
      await waitFor('the open circuit on the other replica', () =>
        [...two.listCircuits().values()].some((record) => record.state === 'open'),
      );
      expect((await second.chat({ messages: [userMessage('hi')] })).aiMessage.text).toBe('backup');
      expect(calls.primary).toBe(primaryCalls); // the second replica did not try it

      await one.setSticky('conversation-1', { model: 'backup' }, MINUTE);
      await waitFor('the sticky on the other replica', () => two.getSticky('conversation-1'));
      expect(two.getSticky('conversation-1')?.model).toBe('backup');

      await Promise.all([
        ...Array.from({ length: 20 }, () => one.addTokens('g/m', 10)),
        ...Array.from({ length: 20 }, () => two.addTokens('g/m', 7)),
      ]);
      await waitFor('both to see the token sum', () =>
        [one, two].every((store) => store.getTokens('g/m') === 340),
      );
    });
  });
}
