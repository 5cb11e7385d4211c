import { describe, expect, it, jest } from '@jest/globals';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import { AimdLimit } from '../../../../src/core/limits/aimd-limit.js';
import { limitConcurrency } from '../../../../src/core/limits/concurrency-gate.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { ConcurrencyLimitException } from '../../../../src/core/errors/concurrency-limit.exception.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { answer, request } from '../strategies/fakes.js';
import { useFakeTimersFrom } from '../../../support/fake-timers.js';

/** Takes every slot there is. */
function fill(limit: AimdLimit): void {
  while (limit.tryAcquire());
}

function drain(limit: AimdLimit): void {
  while (limit.inFlight > 0) limit.release('other');
}

const tooMany = () =>
  new ProviderException('429', { kind: 'rate-limited', provider: 'fake', status: 429 });

describe('AimdLimit', () => {
  it('grows by one per window of successes at the limit and shrinks by a quarter on an overload', () => {
    const limit = new AimdLimit({ adaptive: true, max: 100 });
    expect(limit.limit).toBe(4);
    fill(limit);
    for (let i = 0; i < 4; i += 1) {
      limit.release('success', 10);
      limit.tryAcquire();
    }
    expect(limit.limit).toBe(5);
    drain(limit);
    limit.tryAcquire();
    limit.release('overload');
    expect(limit.limit).toBe(3); // 5 × 0.75: one call in flight says little, a quarter at most
  });

  it('the calls in flight when it shrank do not shrink it again', () => {
    const limit = new AimdLimit({ adaptive: true, max: 100 });
    fill(limit);
    const tickets = [1, 2, 3, 4];
    limit.release('overload', 10, tickets[0]);
    expect(limit.limit).toBe(3);
    limit.release('overload', 10, tickets[1]);
    expect(limit.limit).toBe(3);
  });

  it('never grows past max and refuses a call over the limit', () => {
    const limit = new AimdLimit({ adaptive: true, max: 2 });
    fill(limit);
    for (let i = 0; i < 50; i += 1) {
      limit.release('success', 10);
      limit.tryAcquire();
    }
    drain(limit);
    expect(limit.limit).toBe(2);
    expect(limit.tryAcquire()).toBe(true);
    expect(limit.tryAcquire()).toBe(true);
    expect(limit.tryAcquire()).toBe(false);
  });

  it.each([
    [{}, 'needs max'],
    [{ max: 0 }, 'concurrency.max'],
    [{ adaptive: 'yes' }, 'concurrency.adaptive'],
    [{ max: 2, queueMs: -1 }, 'concurrency.queueMs'],
  ])('%j → names %s', (options, field) => {
    expect(() => new AimdLimit(options as never)).toThrow(field);
  });
});

/** A model whose answers wait until the test releases them. */
function heldModel(name: string) {
  const waiting: (() => void)[] = [];
  const model: ChatModel = {
    chat: () => new Promise((resolve) => waiting.push(() => resolve(answer(name)))),
  };
  return { model, waiting, releaseAll: () => waiting.splice(0).forEach((go) => go()) };
}

describe('a group over models with a concurrency limit', () => {
  useFakeTimersFrom(0);

  it('sends a call over the first model limit to the next model, then refuses with a 429', async () => {
    const a = heldModel('a');
    const b = heldModel('b');
    limitConcurrency(a.model, { max: 2 });
    limitConcurrency(b.model, { max: 1 });
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: a.model },
        { name: 'b', model: b.model },
      ],
      routingStrategy: new FailoverStrategy(),
    });
    const calls = [router.chat(request), router.chat(request), router.chat(request)];
    await jest.advanceTimersByTimeAsync(0);
    expect([a.waiting.length, b.waiting.length]).toEqual([2, 1]);
    await expect(router.chat(request)).rejects.toBeInstanceOf(ConcurrencyLimitException);
    a.releaseAll();
    b.releaseAll();
    const texts = (await Promise.all(calls)).map((r) => r.aiMessage.text);
    expect(texts).toEqual(['a', 'a', 'b']);
    // the slots are free again
    const again = router.chat(request);
    await jest.advanceTimersByTimeAsync(0);
    a.releaseAll();
    expect((await again).aiMessage.text).toBe('a');
  });

  it('a short queue waits for a slot, and gives up after queueMs', async () => {
    const a = heldModel('a');
    limitConcurrency(a.model, { max: 1, queueMs: 500 });
    const router = new ModelRouter({
      routes: [{ name: 'a', model: a.model }],
      routingStrategy: new FailoverStrategy(),
    });
    const first = router.chat(request);
    const queued = router.chat(request);
    await jest.advanceTimersByTimeAsync(100);
    a.releaseAll();
    await jest.advanceTimersByTimeAsync(0);
    expect((await first).aiMessage.text).toBe('a');
    expect(a.waiting).toHaveLength(1); // the queued call got the slot
    const late = router.chat(request);
    const refused = expect(late).rejects.toBeInstanceOf(ConcurrencyLimitException);
    await jest.advanceTimersByTimeAsync(500);
    await refused;
    a.releaseAll();
    await queued;
  });

  it('a 429 shrinks the adaptive limit, frees the slot and fails over', async () => {
    let fail = true;
    const model: ChatModel = {
      chat: async () => {
        if (fail) throw tooMany();
        return answer('a');
      },
    };
    const limit = limitConcurrency(model, { adaptive: true, max: 8 });
    const router = new ModelRouter({
      routes: [
        { name: 'a', model },
        { name: 'b', model: { chat: async () => answer('b') } },
      ],
      routingStrategy: new FailoverStrategy({ cooldownMs: 0 }),
    });
    expect((await router.chat(request)).aiMessage.text).toBe('b');
    expect(limit.limit).toBe(3);
    fail = false;
    expect(limit.inFlight).toBe(0);
  });
});
