import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ChatModel, ChatStreamEvent } from '../../../src/core/chat/chat-model.js';
import { withResilience } from '../../../src/core/resilience/resilient-chat-model.js';
import { SKETCH_SYNC_MS } from '../../../src/core/resilience/shared-latency-sketch.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import { answer, request } from '../core/strategies/fakes.js';
import { ModelRouterRegistry } from '../../../src/nest/module/model-router-registry.js';

/** The module binds its registered models' learnt waits to its state store. */
function thinker(name = 'thinker') {
  let now = Date.now();
  const model: ChatModel = {
    chat: async () => answer('thought'),
    async *stream(): AsyncGenerator<ChatStreamEvent> {
      now += 30_000;
      yield { type: 'text-delta', text: 'thought' };
      yield { type: 'complete', response: answer('thought') };
    },
  };
  return withResilience(model, { name, retry: { maxAttempts: 1 }, clock: () => now });
}

async function streamed(model: ChatModel, times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    for await (const event of model.stream!(request)) if (event.type === 'complete') break;
  }
}

const clock = () => Date.now();

beforeEach(() => {
  jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'queueMicrotask'] });
});
afterEach(() => {
  jest.useRealTimers();
});

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
