import { describe, expect, it, jest } from '@jest/globals';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import { SKETCH_SYNC_MS } from '../../../src/core/resilience/shared-latency-sketch.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import { ModelRouterRegistry } from '../../../src/nest/module/model-router-registry.js';
import { streamed, thinker } from '../../support/slow-first-token.js';
import { useFakeTimersFrom } from '../../support/fake-timers.js';

/** The module binds its registered models' learnt waits to its state store. */
const clock = () => Date.now();

useFakeTimersFrom(1_000_000);

describe('ModelRouterRegistry', () => {
  it("the module shares its registered models' waits through its state store", async () => {
    const stateStore = new InMemoryRouteStateStore(clock);
    const [seen, unseen] = [thinker(), thinker()];
    const replica = (model: ChatModel) =>
      new ModelRouterRegistry({
        routers: { main: model },
        models: { thinker: model },
        stateStore,
        clock,
      });
    replica(seen);
    replica(unseen);
    await streamed(seen, 20);
    jest.advanceTimersByTime(SKETCH_SYNC_MS);
    expect(unseen.deadlines.firstTokenMs()).toBeGreaterThanOrEqual(90_000);
  });
});
