import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import {
  withResilience,
  type ResilienceOptions,
} from '../../../../src/core/resilience/resilient-chat-model.js';
import { IncompleteStreamException } from '../../../../src/core/resilience/incomplete-stream-exception.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { ModelTimeoutException } from '../../../../src/core/errors/timeout-exception.js';
import type { ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';
import {
  drain,
  request,
  response,
  scriptedChatModel,
  scriptedStreamModel,
  settle,
  type StreamStep,
} from './scripted-model.js';

const unavailable = () =>
  new ProviderException('fake provider answered 503', {
    kind: 'transient',
    provider: 'fake',
    status: 503,
  });
const delta = (text: string): ChatStreamEvent => ({ type: 'text-delta', text });
const complete = (text: string): ChatStreamEvent => ({
  type: 'complete',
  response: response(text),
});
const hang = { hang: true } as const;
const usage = (inputTokens: number): ChatStreamEvent => ({
  type: 'input-usage',
  tokenUsage: { inputTokens },
});

function resilientStream(steps: StreamStep[], options: ResilienceOptions = {}) {
  const fake = scriptedStreamModel(steps);
  const events: RoutingEvent[] = [];
  const wrapped = withResilience(fake.model, {
    name: 'streamer',
    retry: { baseDelayMs: 200, random: () => 0.5 },
    ...options,
  });
  const seen: ChatStreamEvent[] = [];
  const run = (signal?: AbortSignal) =>
    settle(drain(wrapped.stream(request, { signal, observer: (e) => events.push(e) }), seen));
  return { ...fake, wrapped, events, seen, run };
}

beforeEach(() => {
  jest.useFakeTimers({ now: 0, doNotFake: ['nextTick', 'queueMicrotask'] });
});
afterEach(() => {
  expect(jest.getTimerCount()).toBe(0);
  jest.useRealTimers();
});

describe('ResilientChatModel.stream', () => {
  it('passes a healthy stream through and lets it clean up', async () => {
    const { run, seen, closed } = resilientStream([[delta('Hel'), delta('lo'), complete('Hello')]]);
    const drained = run();
    await jest.advanceTimersByTimeAsync(0);
    expect(drained.outcome()).toEqual({ ok: true, value: undefined });
    expect(seen).toEqual([delta('Hel'), delta('lo'), complete('Hello')]);
    expect(closed()).toBe(1);
  });

  it('retries a failure before the first event, and the caller sees only the successful attempt', async () => {
    const { run, seen, calls, events } = resilientStream([
      [{ fail: unavailable() }],
      [delta('fresh'), complete('fresh')],
    ]);
    const drained = run();
    await jest.advanceTimersByTimeAsync(1000);
    expect(drained.outcome()?.ok).toBe(true);
    expect(seen).toEqual([delta('fresh'), complete('fresh')]);
    expect(calls.map((c) => c.at)).toEqual([0, 100]);
    expect(events).toEqual([{ type: 'model-retry', model: 'streamer', attempt: 2, delayMs: 100 }]);
  });

  it("retries a failure after input tokens told before any output, handing on the winner's", async () => {
    const { run, seen, calls } = resilientStream([
      [usage(7), { fail: unavailable() }],
      [usage(8), delta('fresh'), complete('fresh')],
    ]);
    const drained = run();
    await jest.advanceTimersByTimeAsync(1000);
    expect(drained.outcome()?.ok).toBe(true);
    expect(seen).toEqual([usage(8), delta('fresh'), complete('fresh')]);
    expect(calls).toHaveLength(2);
  });

  it('does not retry once an event has been yielded: the error propagates', async () => {
    const failure = unavailable();
    const { run, seen, calls } = resilientStream([
      [delta('partial'), { fail: failure }],
      [delta('should never be used'), complete('x')],
    ]);
    const drained = run();
    await jest.advanceTimersByTimeAsync(1000);
    expect(drained.outcome()).toEqual({ ok: false, error: failure });
    expect(seen).toEqual([delta('partial')]);
    expect(calls).toHaveLength(1);
  });

  it('times out the first token, aborts the attempt and does not retry it', async () => {
    const { run, seen, calls } = resilientStream([[hang]], {
      timeouts: { firstTokenMs: 800, attemptMs: 5000 },
    });
    const drained = run();
    await jest.advanceTimersByTimeAsync(799);
    expect(drained.outcome()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    const outcome = drained.outcome() as { ok: false; error: ModelTimeoutException };
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toBeInstanceOf(ModelTimeoutException);
    expect(outcome.error).toMatchObject({ phase: 'first-token', timeoutMs: 800 });
    expect(seen).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal?.reason).toBe(outcome.error);
  });

  it('bounds the first token at 12 s by default until it has learnt, not the 60 s attempt timeout', async () => {
    const { run } = resilientStream([[hang]]);
    const drained = run();
    await jest.advanceTimersByTimeAsync(11_999);
    expect(drained.outcome()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(drained.outcome()).toMatchObject({
      ok: false,
      error: { phase: 'first-token', timeoutMs: 12_000 },
    });
  });

  it('keeps a fixed first-token bound when firstTokenTimeout is a duration', async () => {
    const { run } = resilientStream([[hang]], { firstTokenTimeout: 20_000 });
    const drained = run();
    await jest.advanceTimersByTimeAsync(19_999);
    expect(drained.outcome()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(drained.outcome()).toMatchObject({ ok: false, error: { timeoutMs: 20_000 } });
  });

  it('lets a model that thinks first raise its first-token bound', async () => {
    const { run } = resilientStream([[hang]], { timeouts: { firstTokenMs: 120_000 } });
    const drained = run();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(drained.outcome()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(drained.outcome()).toMatchObject({ ok: false, error: { timeoutMs: 120_000 } });
  });

  it('uses a shorter attempt timeout for the first token when none is set', async () => {
    const { run } = resilientStream([[hang]], { timeouts: { attemptMs: 300 } });
    const drained = run();
    await jest.advanceTimersByTimeAsync(300);
    expect(drained.outcome()).toMatchObject({
      ok: false,
      error: { phase: 'first-token', timeoutMs: 300 },
    });
  });

  it('times out a stall between events (idle timeout) after content was streamed', async () => {
    const { run, seen, calls, closed } = resilientStream([[delta('Once upon'), hang]], {
      timeouts: { idleMs: 1000, firstTokenMs: 100 },
    });
    const drained = run();
    await jest.advanceTimersByTimeAsync(999);
    expect(drained.outcome()).toBeUndefined();
    expect(seen).toEqual([delta('Once upon')]);
    await jest.advanceTimersByTimeAsync(1);
    expect(drained.outcome()).toMatchObject({
      ok: false,
      error: { name: 'ModelTimeoutException', phase: 'idle', timeoutMs: 1000 },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal?.aborted).toBe(true);
    await jest.advanceTimersByTimeAsync(0);
    expect(closed()).toBe(1);
  });

  it('does not count a slow consumer as a stall', async () => {
    const { wrapped } = resilientStream([[delta('a'), delta('b'), complete('ab')]], {
      timeouts: { idleMs: 100 },
    });
    const iterator = wrapped.stream(request)[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: delta('a') });
    await jest.advanceTimersByTimeAsync(5000); // the consumer dawdles after the first event…
    expect(await iterator.next()).toEqual({ done: false, value: delta('b') });
    await jest.advanceTimersByTimeAsync(5000); // …and after one fetched while idle-bounded
    expect(await iterator.next()).toEqual({ done: false, value: complete('ab') });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('bounds a stream by the deadline across retries', async () => {
    const { run, calls } = resilientStream([[{ fail: unavailable() }], [delta('slow'), hang]], {
      timeouts: { deadlineMs: 2000, idleMs: 10_000 },
    });
    const drained = run();
    await jest.advanceTimersByTimeAsync(2000);
    expect(drained.outcome()).toMatchObject({
      ok: false,
      error: { phase: 'deadline', timeoutMs: 2000 },
    });
    expect(calls).toHaveLength(2);
  });

  it('treats a stream that ends without complete as an error, retried only before any event', async () => {
    const empty = resilientStream([[], [delta('ok'), complete('ok')]]);
    const first = empty.run();
    await jest.advanceTimersByTimeAsync(1000);
    expect(first.outcome()?.ok).toBe(true);
    expect(empty.calls).toHaveLength(2);

    const truncated = resilientStream([[delta('cut')]]);
    const second = truncated.run();
    await jest.advanceTimersByTimeAsync(1000);
    const outcome = second.outcome() as { ok: false; error: unknown };
    expect(outcome.error).toBeInstanceOf(IncompleteStreamException);
    expect((outcome.error as Error).message).toContain("'streamer'");
    expect(truncated.seen).toEqual([delta('cut')]);
    expect(truncated.calls).toHaveLength(1);
  });

  it("rejects with the caller's reason when aborted mid-stream, and aborts the model", async () => {
    const { run, seen, calls } = resilientStream([[delta('a'), hang]]);
    const controller = new AbortController();
    const drained = run(controller.signal);
    await jest.advanceTimersByTimeAsync(50);
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    await jest.advanceTimersByTimeAsync(0);
    expect(drained.outcome()).toEqual({ ok: false, error: reason });
    expect(seen).toEqual([delta('a')]);
    expect(calls[0]!.signal?.reason).toBe(reason);
  });

  it("rejects with the caller's reason when aborted during a backoff before the first event", async () => {
    const { run, calls } = resilientStream([[{ fail: unavailable() }]], {
      retry: { baseDelayMs: 2000, random: () => 0.9 },
    });
    const controller = new AbortController();
    const drained = run(controller.signal);
    await jest.advanceTimersByTimeAsync(500);
    controller.abort();
    await jest.advanceTimersByTimeAsync(0);
    expect(drained.outcome()).toEqual({ ok: false, error: controller.signal.reason });
    expect(calls).toHaveLength(1);
  });

  it('aborts the model and closes its stream when the consumer stops early', async () => {
    const { wrapped, calls, closed } = resilientStream([[delta('a'), delta('b'), complete('ab')]]);
    for await (const event of wrapped.stream(request)) {
      expect(event).toEqual(delta('a'));
      break;
    }
    await jest.advanceTimersByTimeAsync(0);
    expect(calls[0]!.signal?.aborted).toBe(true);
    expect(closed()).toBe(1);
  });

  it('leaves a whole answer unaborted when the consumer stops at its complete event', async () => {
    // ModelRouter's failover stream breaks there; an abort would close the pooled connection
    // that is still reading the stream's tail
    const { wrapped, calls, closed } = resilientStream([[delta('a'), complete('a')]]);
    for await (const event of wrapped.stream(request)) {
      if (event.type === 'complete') break;
    }
    await jest.advanceTimersByTimeAsync(0);
    expect(calls[0]!.signal?.aborted).toBe(false);
    expect(closed()).toBe(1);
  });

  it('serves a model without stream() through chat(), with retries', async () => {
    const { model, calls } = scriptedChatModel([{ fail: unavailable() }, { respond: 'from chat' }]);
    const seen: ChatStreamEvent[] = [];
    const drained = settle(
      drain(withResilience(model, { retry: { random: () => 0 } }).stream(request), seen),
    );
    await jest.advanceTimersByTimeAsync(0);
    expect(drained.outcome()?.ok).toBe(true);
    expect(seen).toEqual([delta('from chat'), complete('from chat')]);
    expect(calls).toHaveLength(2);
  });
});
