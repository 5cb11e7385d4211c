import { describe, expect, it, jest } from '@jest/globals';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { limitConcurrency } from '../../../../src/core/limits/concurrency-gate.js';
import { withResilience } from '../../../../src/core/resilience/resilient-chat-model.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { answer, request } from '../strategies/fakes.js';
import { useFakeTimersFrom } from '../../../support/fake-timers.js';

const CAPACITY = 8;
const ANSWER_MS = 20;
const CALLS = 600;

/** A provider that answers in 20 ms and refuses (429) a call over 8 in flight. */
function busyProvider() {
  const load = { inFlight: 0, served: 0, refused: 0 };
  const model: ChatModel = {
    chat: async () => {
      if (load.inFlight >= CAPACITY) {
        load.refused += 1;
        throw new ProviderException('429', { kind: 'rate-limited', provider: 'fake', status: 429 });
      }
      load.inFlight += 1;
      await new Promise((resolve) => setTimeout(resolve, ANSWER_MS));
      load.inFlight -= 1;
      load.served += 1;
      return answer('a');
    },
  };
  return { model, load };
}

/**
 * The overload bench in virtual time: 32 callers against a provider that takes 8, through the
 * model's retries and an adaptive limit with a queue. Throughput is measured on the fake clock
 * (no machine speed in it), against an ideal client that keeps exactly 8 calls in flight.
 */
describe('an adaptive limit against a provider that refuses over 8 in flight', () => {
  useFakeTimersFrom(0);

  it('answers every call, with few 429s and near the ideal throughput', async () => {
    const provider = busyProvider();
    const model = withResilience(provider.model, {
      name: 'busy',
      retry: { maxAttempts: 3, random: () => 0.5 }, // backoffs of 125 ms, then 250 ms
    });
    const limit = limitConcurrency(model, {
      adaptive: true,
      max: 64,
      queueMs: 10_000,
      queueSize: 64,
    });
    const router = new ModelRouter({
      routes: [{ name: 'busy', model }],
      routingStrategy: new FailoverStrategy({ cooldownMs: 0 }),
    });
    let started = 0;
    let failed = 0;
    const progress = { done: false };
    const worker = async () => {
      while (started < CALLS) {
        started += 1;
        await router.chat(request).catch(() => (failed += 1));
      }
    };
    const all = Promise.all(Array.from({ length: 32 }, worker)).then(() => {
      progress.done = true;
    });
    while (!progress.done) await jest.advanceTimersByTimeAsync(ANSWER_MS / 4);
    await all;

    const idealMs = (CALLS / CAPACITY) * ANSWER_MS;
    const share429 = provider.load.refused / (provider.load.served + provider.load.refused);
    expect(failed).toBe(0);
    expect(provider.load.served).toBe(CALLS);
    expect(share429).toBeLessThanOrEqual(0.03);
    expect(idealMs / Date.now()).toBeGreaterThanOrEqual(0.9);
    expect(limit.inFlight).toBe(0);
    expect(limit.waiting).toBe(0);
  });
});
