import { describe, expect, it } from '@jest/globals';
import type { ChatModel, ChatStreamEvent } from '../../../src/core/chat/chat-model.js';
import { userMessage } from '../../../src/core/chat/messages.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { HEDGE_BURST, type HedgeBucket } from '../../../src/core/group/hedge-bucket.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import type { RouteStateStore } from '../../../src/core/state/route-state-store.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { withResilience } from '../../../src/core/resilience/resilient-chat-model.js';
import { SKETCH_SYNC_MS } from '../../../src/core/resilience/shared-latency-sketch.js';
import { thinker } from '../../support/slow-first-token.js';
import { useRedisStores, waitFor } from './redis-fixtures.js';

/**
 * Two routers on one Redis, as two replicas of one app: what one learns of a model's first
 * token, the other uses; the hedge budget is the group's. Each router has models of its own (as
 * separate processes would); what they share goes through Redis only.
 */
const fixture = useRedisStores();
const request = { messages: [userMessage('Hello')] };
const answer = (text: string): ChatResponse => ({ aiMessage: { role: 'assistant', text } });
const realClock = () => Date.now();

function group(store: RouteStateStore, routes: { name: string; model: ChatModel }[]) {
  const router = new ModelRouter({
    routes,
    routingStrategy: new FailoverStrategy(),
    hedge: { after: 5, maxExtra: 0.1 },
  });
  router.bindRouteState({ store, scope: 'tail', clock: realClock });
  return router;
}

/** A replica of a hedged group: `primary.ms` sets how slow its first model is; counts hedges. */
function hedgedReplica(store: RouteStateStore) {
  const primary = { ms: 0, hedges: 0 };
  const slow: ChatModel = {
    chat: (_request, options) => {
      if (primary.ms === 0) return Promise.resolve(answer('primary'));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(answer('primary')), primary.ms);
        options?.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(options.signal!.reason);
        });
      });
    },
  };
  const backup: ChatModel = {
    chat: async () => {
      primary.hedges += 1;
      return answer('backup');
    },
  };
  const router = group(store, [
    { name: 'primary', model: slow },
    { name: 'backup', model: backup },
  ]);
  // what the replica's bucket holds (its view of the group's)
  const bucket = (router as unknown as { hedge: { bucket: HedgeBucket } }).hedge.bucket;
  return { router, primary, tokens: () => bucket.available() };
}

async function calls(router: ModelRouter, count: number, concurrency = 10): Promise<void> {
  for (let done = 0; done < count; done += concurrency) {
    await Promise.all(Array.from({ length: concurrency }, () => router.chat(request)));
  }
}

async function drain(stream: AsyncIterable<ChatStreamEvent>): Promise<void> {
  for await (const event of stream) if (event.type === 'complete') return;
}

describe('tail state shared through Redis', () => {
  it('gives a replica the first-token deadline another replica learnt', async () => {
    const [storeA, storeB] = [await fixture.stores.open(), await fixture.stores.open()];
    const [seen, unseen] = [thinker(), thinker()];
    const routerA = group(storeA, [{ name: 'thinker', model: seen }]);
    group(storeB, [{ name: 'thinker', model: unseen }]);
    expect(unseen.deadlines.firstTokenMs()).toBe(12_000);

    for (let i = 0; i < 20; i += 1) await drain(routerA.stream(request));
    expect(seen.deadlines.firstTokenMs()).toBeGreaterThanOrEqual(90_000);
    // replica B never called the model: it learns through Redis within a sync or two
    const learnt = await waitFor(
      'replica B to learn',
      () => {
        const ms = unseen.deadlines.firstTokenMs()!;
        return ms >= 90_000 && ms;
      },
      10_000,
    );
    expect(learnt).toBeLessThanOrEqual(99_000);

    // Redis goes away: B keeps answering, on what it learnt itself (nothing yet: 12 s)
    await fixture.redis.kill();
    await waitFor('B to notice', () => !storeB.isShared());
    await waitFor('B to use its own figures', () => unseen.deadlines.firstTokenMs() === 12_000);
    const routerB = group(storeB, [{ name: 'thinker', model: unseen }]);
    await drain(routerB.stream(request));
  });

  it('caps both replicas together at maxExtra of their combined calls', async () => {
    const [a, b] = [
      hedgedReplica(await fixture.stores.open()),
      hedgedReplica(await fixture.stores.open()),
    ];
    // 100 calm calls on A earn the group its reserve…
    await calls(a.router, 100);
    expect(a.primary.hedges).toBe(0);
    await waitFor('B to hear of A’s calls', () => b.tokens() >= HEDGE_BURST - 0.2);
    // …which B, whose calls are all slow, spends beside what its own calls earn
    b.primary.ms = 60;
    await calls(b.router, 100);
    // alone, B's 100 calls would allow 10 extra calls; the group's 200 allow 20
    expect(b.primary.hedges).toBeGreaterThan(10);
    expect(b.primary.hedges).toBeLessThanOrEqual(20);

    // both slow at once: each decides on what it heard, at most a sync interval behind
    a.primary.ms = 60;
    await Promise.all([calls(a.router, 100), calls(b.router, 100)]);
    const extras = a.primary.hedges + b.primary.hedges;
    // 400 calls allow 40 extra calls; the slack is one burst (10) for the other replica
    expect(extras).toBeLessThanOrEqual(0.1 * 400 + HEDGE_BURST);
    expect(extras).toBeGreaterThan(20);
  });

  it('sends the samples a replica recorded while Redis was down once it is back', async () => {
    const [storeA, storeB] = [await fixture.stores.open(), await fixture.stores.open()];
    const quick: ChatModel = { chat: async () => answer('quick') };
    const [seen, unseen] = [
      withResilience(quick, { name: 'quick-writer', retry: { maxAttempts: 1 } }),
      withResilience(quick, { name: 'quick-writer', retry: { maxAttempts: 1 } }),
    ];
    seen.shareLatency({ store: storeA, clock: realClock });
    unseen.shareLatency({ store: storeB, clock: realClock });
    await fixture.redis.kill();
    await waitFor('A to notice', () => !storeA.isShared());
    // A learns alone during the outage: 20 quick answers, the 10 s floor
    for (let i = 0; i < 20; i += 1) await seen.chat(request);
    await new Promise((resolve) => setTimeout(resolve, SKETCH_SYNC_MS + 100)); // a merge not taken
    expect(seen.answerDeadline.currentMs(undefined)).toBe(10_000);
    expect(unseen.answerDeadline.currentMs(undefined)).toBe(60_000);
    await fixture.redis.restart();
    // B never called the model: it learns from what A recorded while Redis was down
    await waitFor(
      'B to learn from the outage',
      () => {
        seen.answerDeadline.currentMs(undefined); // A's reads start its syncs
        return unseen.answerDeadline.currentMs(undefined) === 10_000;
      },
      15_000,
    );
  });
});
