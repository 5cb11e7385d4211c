import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { getEventListeners } from 'node:events';
import type { ChatModel, ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { HedgePolicy } from '../../../../src/core/group/hedge-policy.js';
import { answer, drain, request, textOf } from '../strategies/fakes.js';

/** A model answering after `delays[call]` ms of fake time (last one repeats); records aborts. */
function timedModel(name: string, delays: number[]) {
  let call = 0;
  const aborted: unknown[] = [];
  const wait = (signal: AbortSignal | undefined) => {
    const ms = delays[Math.min(call++, delays.length - 1)]!;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted.push(signal.reason);
        reject(signal.reason);
      });
    });
  };
  const model: ChatModel & { aborted: unknown[]; calls: () => number } = {
    aborted,
    calls: () => call,
    async chat(_request, options) {
      await wait(options?.signal);
      return answer(name);
    },
    async *stream(_request, options): AsyncGenerator<ChatStreamEvent> {
      await wait(options?.signal);
      yield { type: 'text-delta', text: name };
      yield { type: 'complete', response: answer(name) };
    },
  };
  return model;
}

/** A model that ignores its signal: answers after 5 s unless `release`d (its timer cleared). */
function deafModel(name: string) {
  const timers: ReturnType<typeof setTimeout>[] = [];
  const model: ChatModel = {
    chat: () =>
      new Promise((resolve) => void timers.push(setTimeout(() => resolve(answer(name)), 5_000))),
  };
  return { model, release: () => timers.forEach((timer) => clearTimeout(timer)) };
}

function hedgedRouter(a: ChatModel, b: ChatModel, maxExtra = 1, after: number | 'p95' = 1_000) {
  const events: RoutingEvent[] = [];
  const router = new ModelRouter({
    routes: [
      { name: 'a', model: a },
      { name: 'b', model: b },
    ],
    routingStrategy: new FailoverStrategy(),
    hedge: { after, maxExtra },
  });
  return { router, events, observer: (event: RoutingEvent) => void events.push(event) };
}

beforeEach(() => {
  jest.useFakeTimers({ now: 0, doNotFake: ['nextTick', 'queueMicrotask'] });
});
afterEach(async () => {
  // nothing outlives the hedge delay: a group's delay timer, left armed when its last call
  // answered early (clearing it would cost a timer per call), fires once more and stops
  await jest.advanceTimersByTimeAsync(1_000);
  expect(jest.getTimerCount()).toBe(0);
  jest.useRealTimers();
});

describe('hedged requests', () => {
  it('a slow answer is hedged on the next model, which wins; the loser is aborted', async () => {
    const a = timedModel('a', [5_000]);
    const b = timedModel('b', [100]);
    const { router, events, observer } = hedgedRouter(a, b);
    const pending = router.chat(request, { observer });
    await jest.advanceTimersByTimeAsync(1_100);
    const response = await pending;
    expect(response.aiMessage.text).toBe('b');
    expect(a.aborted).toHaveLength(1);
    expect(events).toContainEqual({ type: 'hedge-fired', model: 'a', to: 'b', afterMs: 1_000 });
    expect(events).toContainEqual({ type: 'hedge-won', winner: 'b', loser: 'a', hedge: true });
    // the loser is not a failure of the model
    expect(events.some((e) => e.type === 'model-failed')).toBe(false);
  });

  it('the hedge answers the call at once, even when the first model ignores its abort', async () => {
    let release: (() => void) | undefined;
    const deaf: ChatModel = {
      chat: () =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(answer('a')), 5_000);
          release = () => clearTimeout(timer);
        }),
    };
    const b = timedModel('b', [100]);
    const { router } = hedgedRouter(deaf, b);
    let settled = false;
    const pending = router.chat(request).finally(() => (settled = true));
    await jest.advanceTimersByTimeAsync(1_100);
    expect(settled).toBe(true);
    expect((await pending).aiMessage.text).toBe('b');
    release?.();
  });

  it("a caller's abort ends a hedged call at once through the attempt's one listener", async () => {
    const deaf = deafModel('a');
    const { router } = hedgedRouter(deaf.model, timedModel('b', [100]));
    const caller = new AbortController();
    const pending = router.chat(request, { signal: caller.signal });
    const outcome = pending.catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(500);
    // the attempt's link is the only listener: no second race on the caller's signal
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort(new Error('caller left'));
    await jest.advanceTimersByTimeAsync(0);
    expect(await outcome).toMatchObject({ message: 'caller left' });
    deaf.release();
  });

  it("a caller's abort ends the race of two attempts that both ignore it", async () => {
    const [a, b] = [deafModel('a'), deafModel('b')];
    const { router } = hedgedRouter(a.model, b.model);
    const caller = new AbortController();
    const outcome = router
      .chat(request, { signal: caller.signal })
      .catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(1_100); // the hedge runs beside the first attempt
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(2);
    caller.abort(new Error('caller left'));
    await jest.advanceTimersByTimeAsync(0);
    expect(await outcome).toMatchObject({ message: 'caller left' });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    a.release();
    b.release();
  });

  it('a fast answer never hedges', async () => {
    const a = timedModel('a', [200]);
    const b = timedModel('b', [100]);
    const { router, events, observer } = hedgedRouter(a, b);
    const pending = router.chat(request, { observer });
    await jest.advanceTimersByTimeAsync(200);
    expect((await pending).aiMessage.text).toBe('a');
    expect(b.calls()).toBe(0);
    expect(events.some((e) => e.type === 'hedge-fired')).toBe(false);
  });

  it('the primary still wins when it answers before the hedge', async () => {
    const a = timedModel('a', [1_500]);
    const b = timedModel('b', [2_000]);
    const { router, events, observer } = hedgedRouter(a, b);
    const pending = router.chat(request, { observer });
    await jest.advanceTimersByTimeAsync(1_500);
    expect((await pending).aiMessage.text).toBe('a');
    expect(b.aborted).toHaveLength(1);
    expect(events).toContainEqual({ type: 'hedge-won', winner: 'a', loser: 'b', hedge: false });
  });

  it('caps extra calls at maxExtra of the traffic', async () => {
    const a = timedModel('a', [1_500]);
    const b = timedModel('b', [5_000]);
    const { router, events, observer } = hedgedRouter(a, b, 0.25);
    for (let i = 0; i < 8; i += 1) {
      const pending = router.chat(request, { observer });
      await jest.advanceTimersByTimeAsync(1_500);
      await pending;
    }
    expect(events.filter((e) => e.type === 'hedge-fired')).toHaveLength(2);
  });

  it('hedges a stream on its first token and forwards only the winner', async () => {
    const a = timedModel('a', [5_000]);
    const b = timedModel('b', [100]);
    const { router, events, observer } = hedgedRouter(a, b);
    const pending = drain(router.stream(request, { observer }));
    await jest.advanceTimersByTimeAsync(1_100);
    const { events: streamed, error } = await pending;
    expect(error).toBeUndefined();
    expect(textOf(streamed)).toBe('b');
    expect(a.aborted).toHaveLength(1);
    expect(events).toContainEqual({ type: 'hedge-won', winner: 'b', loser: 'a', hedge: true });
  });

  it('races a stream on its first output, not on input tokens told before it', async () => {
    const slow = timedModel('a', [5_000]);
    const a: ChatModel = {
      chat: slow.chat,
      async *stream(asked, options) {
        yield { type: 'input-usage', tokenUsage: { inputTokens: 3 } };
        yield* slow.stream!(asked, options);
      },
    };
    const { router, events, observer } = hedgedRouter(a, timedModel('b', [100]));
    const pending = drain(router.stream(request, { observer }));
    await jest.advanceTimersByTimeAsync(1_100);
    const { events: streamed, error } = await pending;
    expect(error).toBeUndefined();
    expect(textOf(streamed)).toBe('b');
    // the loser's count never reaches the caller
    expect(streamed.filter((event) => event.type === 'input-usage')).toEqual([]);
    expect(events).toContainEqual({ type: 'hedge-won', winner: 'b', loser: 'a', hedge: true });
  });

  it('a failure of the primary while the hedge runs waits for the hedge', async () => {
    const failing: ChatModel = {
      chat: () =>
        new Promise((_, reject) =>
          setTimeout(() => reject(Object.assign(new Error('boom'), { kind: 'transient' })), 1_200),
        ),
    };
    const b = timedModel('b', [500]);
    const { router, observer } = hedgedRouter(failing, b);
    const pending = router.chat(request, { observer });
    await jest.advanceTimersByTimeAsync(1_500);
    expect((await pending).aiMessage.text).toBe('b');
  });

  it('a percentile delay waits until it has learnt the group latency', () => {
    const policy = new HedgePolicy({ after: 'p95', maxExtra: 0.1 });
    expect(policy.delayMs()).toBeUndefined();
    for (let i = 0; i < 100; i += 1) policy.observe(i < 95 ? 20 : 2_000);
    const delay = policy.delayMs()!;
    expect(delay).toBeGreaterThanOrEqual(20);
    expect(delay).toBeLessThan(25);
  });

  it('a percentile delay follows a slower group within 16 calls', () => {
    const policy = new HedgePolicy({ after: 'p95', maxExtra: 0.1 });
    for (let i = 0; i < 100; i += 1) policy.observe(20);
    expect(policy.delayMs()).toBeLessThan(25);
    for (let i = 0; i < 600; i += 1) policy.observe(400);
    const delays = Array.from({ length: 16 }, () => policy.delayMs()!);
    expect(delays.at(-1)).toBeGreaterThanOrEqual(400);
    expect(delays.at(-1)).toBeLessThan(450);
  });

  it.each([
    [{ after: 'p50' }, 'hedge.after'],
    [{ after: -1 }, 'hedge.after'],
    [{ after: 100, maxExtra: 2 }, 'hedge.maxExtra'],
  ])('%j → names %s', (options, field) => {
    expect(() => new HedgePolicy(options as never)).toThrow(field);
  });
});
