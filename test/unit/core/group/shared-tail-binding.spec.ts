import { describe, expect, it, jest } from '@jest/globals';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { SKETCH_SYNC_MS } from '../../../../src/core/resilience/shared-latency-sketch.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { streamed, thinker } from '../../../support/slow-first-token.js';
import { useFakeTimersFrom } from '../../../support/fake-timers.js';

/**
 * Who binds the shared latency: a group binds its models, a router binds a route served by one
 * model alone. Two components on one in-memory store stand for two replicas.
 */
const clock = () => Date.now();

useFakeTimersFrom(1_000_000);

describe('binding route state shares the learnt waits', () => {
  it("a group shares its models' waits with another group's models of the same name", async () => {
    const store = new InMemoryRouteStateStore(clock);
    const [seen, unseen] = [thinker(), thinker()];
    const group = (model: ChatModel) => {
      const router = new ModelRouter({
        routes: [{ name: 'thinker', model }],
        routingStrategy: new FailoverStrategy(),
      });
      router.bindRouteState({ store, scope: 'g', clock });
      return router;
    };
    const first = group(seen);
    group(unseen);
    await streamed(first, 20);
    jest.advanceTimersByTime(SKETCH_SYNC_MS);
    expect(unseen.deadlines.firstTokenMs()).toBeGreaterThanOrEqual(90_000);
  });

  it('a router shares the waits of a route served by one model alone', async () => {
    const store = new InMemoryRouteStateStore(clock);
    const [seen, unseen] = [thinker(), thinker()];
    const routing = (model: ChatModel) => {
      const router = new RoutingChatModel({
        routes: [{ name: 'think', model }],
        router: () => ChatModelRoutingResult.route('think'),
        defaultRoute: 'think',
      });
      router.bindRouteState({ store, scope: 'r', clock });
      return router;
    };
    const first = routing(seen);
    routing(unseen);
    await streamed(first, 20);
    jest.advanceTimersByTime(SKETCH_SYNC_MS);
    expect(unseen.deadlines.firstTokenMs()).toBeGreaterThanOrEqual(90_000);
  });

  it('models of other names learn nothing from it', async () => {
    const store = new InMemoryRouteStateStore(clock);
    const [seen, other] = [thinker('thinker'), thinker('other')];
    seen.shareLatency({ store, clock });
    other.shareLatency({ store, clock });
    await streamed(seen, 20);
    jest.advanceTimersByTime(SKETCH_SYNC_MS);
    expect(other.deadlines.firstTokenMs()).toBe(12_000);
  });
});
