import { describe, expect, it, jest } from '@jest/globals';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import { AimdLimit } from '../../../../src/core/limits/aimd-limit.js';
import { limitConcurrency } from '../../../../src/core/limits/concurrency-gate.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { answer, request } from '../strategies/fakes.js';
import { useFakeTimersFrom } from '../../../support/fake-timers.js';
import { manualTimers } from '../../../support/manual-timers.js';

describe('the queue of a concurrency limit', () => {
  useFakeTimersFrom(0);

  it('hands a freed slot to the longest waiter, taken: a newcomer does not barge in', async () => {
    const limit = new AimdLimit({ max: 1, queueMs: 1_000 });
    expect(limit.tryAcquire()).toBe(true);
    const order: number[] = [];
    const first = limit.waitForSlot().then((ticket) => order.push(ticket));
    const second = limit.waitForSlot().then((ticket) => order.push(ticket));
    limit.release('success', 10);
    expect(limit.tryAcquire()).toBe(false); // the freed slot went to the first waiter
    await first;
    expect(order).toEqual([2]);
    limit.release('success', 10);
    await second;
    expect(order).toEqual([2, 3]);
    expect(limit.inFlight).toBe(1);
  });

  it('refuses each waiter after queueMs with one timer for the whole queue', async () => {
    const limit = new AimdLimit({ max: 1, queueMs: 500, queueSize: 8 });
    limit.tryAcquire();
    const refused: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      void limit.waitForSlot().then((ticket) => ticket === 0 && refused.push(Date.now()));
      await jest.advanceTimersByTimeAsync(100);
    }
    expect(jest.getTimerCount()).toBe(1);
    await jest.advanceTimersByTimeAsync(600);
    expect(refused).toEqual([500, 600, 700, 800]);
    expect(limit.waiting).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('refuses at once when full, and frees the place of a caller who aborts', async () => {
    const limit = new AimdLimit({ max: 1, queueMs: 1_000, queueSize: 2 });
    limit.tryAcquire();
    const caller = new AbortController();
    const aborted = limit.waitForSlot(caller.signal);
    const kept = limit.waitForSlot();
    expect(await limit.waitForSlot()).toBe(0); // full
    caller.abort();
    expect(await aborted).toBe(0);
    expect(limit.waiting).toBe(1);
    limit.release('other');
    expect(await kept).toBeGreaterThan(0);
    expect(jest.getTimerCount()).toBe(0); // nobody waits: no timer left behind
  });

  it('a call aborted while queued in a group is refused and its place is taken by the next', async () => {
    const waiting: (() => void)[] = [];
    const model: ChatModel = {
      chat: () => new Promise((resolve) => waiting.push(() => resolve(answer('a')))),
    };
    const limit = limitConcurrency(model, { max: 1, queueMs: 5_000 });
    const router = new ModelRouter({
      routes: [{ name: 'a', model }],
      routingStrategy: new FailoverStrategy(),
    });
    const first = router.chat(request);
    await jest.advanceTimersByTimeAsync(0);
    const caller = new AbortController();
    const gone = router.chat(request, { signal: caller.signal });
    const next = router.chat(request);
    await jest.advanceTimersByTimeAsync(0);
    expect(limit.waiting).toBe(2);
    caller.abort();
    await expect(gone).rejects.toMatchObject({ name: 'AbortError' }); // its abort, not a 429
    expect(limit.waiting).toBe(1);
    waiting.shift()!();
    await first;
    await jest.advanceTimersByTimeAsync(0);
    expect(waiting).toHaveLength(1); // the next caller got the slot
    waiting.shift()!();
    expect((await next).aiMessage.text).toBe('a');
    expect(limit.inFlight).toBe(0);
  });

  it('a slot a growing adaptive limit adds goes to a waiter too', async () => {
    const limit = new AimdLimit({ adaptive: true, max: 10, queueMs: 1_000 });
    while (limit.tryAcquire());
    for (let i = 0; i < 3; i += 1) {
      limit.release('success', 10);
      limit.tryAcquire();
    }
    const waiters = [limit.waitForSlot(), limit.waitForSlot()];
    limit.release('success', 10); // the 4th success at the limit: 4 → 5
    expect(limit.limit).toBe(5);
    expect(await Promise.all(waiters)).toEqual([8, 9]);
    expect(limit.inFlight).toBe(5);
  });
});

describe('the queue of a concurrency limit on injected timers', () => {
  it('sets its one timer on the given timers and refuses each waiter when its time is up', async () => {
    const time = manualTimers();
    const limit = new AimdLimit({ max: 1, queueMs: 500 }, 'concurrency', time.clock, time.timers);
    limit.tryAcquire();
    const tickets: Promise<number>[] = [];
    for (let i = 0; i < 3; i += 1) {
      tickets.push(limit.waitForSlot());
      time.advance(100);
    }
    expect(time.armed()).toBe(1);
    const refusedBy = async (ms: number) => {
      time.advance(ms - time.clock());
      const settled = await Promise.all(
        tickets.map((ticket) => Promise.race([ticket, Promise.resolve('waiting')])),
      );
      return settled.filter((ticket) => ticket === 0).length;
    };
    expect(await refusedBy(499)).toBe(0);
    expect(await refusedBy(500)).toBe(1);
    expect(await refusedBy(600)).toBe(2);
    expect(await refusedBy(700)).toBe(3);
    expect(limit.waiting).toBe(0);
    expect(time.pending()).toBe(0);
  });

  it('clears its timer on the given timers when the last waiter is served', async () => {
    const time = manualTimers();
    const limit = new AimdLimit({ max: 1, queueMs: 500 }, 'concurrency', time.clock, time.timers);
    limit.tryAcquire();
    const served = limit.waitForSlot();
    expect(time.pending()).toBe(1);
    limit.release('success', 10);
    expect(await served).toBeGreaterThan(0);
    expect(time.pending()).toBe(0);
  });
});
