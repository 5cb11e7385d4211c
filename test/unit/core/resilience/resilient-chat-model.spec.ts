import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import {
  ResilientChatModel,
  withResilience,
  type ResilienceOptions,
} from '../../../../src/core/resilience/resilient-chat-model.js';
import { RetryPolicy } from '../../../../src/core/resilience/retry-policy.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { ModelTimeoutException } from '../../../../src/core/errors/timeout-exception.js';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import type { ErrorKind } from '../../../../src/core/resilience/error-classification.js';
import { Capability } from '../../../../src/core/chat/capability.js';
import { request, scriptedChatModel, settle, type ChatStep } from './scripted-model.js';

function providerError(kind: ErrorKind, status: number, retryAfterMs?: number) {
  return new ProviderException(`fake provider answered ${status}`, {
    kind,
    provider: 'fake',
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** random = 0.5: the k-th retry waits exactly base × 2^(k-1) / 2. */
function resilient(steps: ChatStep[], options: ResilienceOptions = {}) {
  const { model, calls } = scriptedChatModel(steps);
  const events: RoutingEvent[] = [];
  const wrapped = withResilience(model, {
    name: 'primary',
    retry: { baseDelayMs: 200, maxDelayMs: 2000, random: () => 0.5 },
    ...options,
  });
  const call = (signal?: AbortSignal) =>
    settle(
      wrapped.chat(request, {
        signal,
        observer: (event) => events.push(event),
        attributes: { chat_model_route: 'simple' },
      }),
    );
  return { wrapped, calls, events, call, starts: () => calls.map((c) => c.at) };
}

beforeEach(() => {
  jest.useFakeTimers({ now: 0, doNotFake: ['nextTick', 'queueMicrotask'] });
});
afterEach(() => {
  expect(jest.getTimerCount()).toBe(0); // every call cleans up its timers
  jest.useRealTimers();
});

describe('ResilientChatModel.chat retries', () => {
  it('retries a 429 without Retry-After with backoff, 3 attempts in all, then rethrows it', async () => {
    const error = providerError('rate-limited', 429);
    const { call, starts, events } = resilient([{ fail: error }]);
    const run = call();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run.outcome()).toEqual({ ok: false, error });
    expect(starts()).toEqual([0, 100, 300]);
    expect(events).toEqual([
      { type: 'model-retry', route: 'simple', model: 'primary', attempt: 2, delayMs: 100 },
      { type: 'model-retry', route: 'simple', model: 'primary', attempt: 3, delayMs: 200 },
    ]);
  });

  it("waits a 429's Retry-After when it is within maxRetryAfterMs", async () => {
    const { call, starts } = resilient([{ fail: providerError('rate-limited', 429, 1500) }]);
    const run = call();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run.outcome()?.ok).toBe(false);
    expect(starts()).toEqual([0, 1500, 3000]);
  });

  it('gives up on the model at once when Retry-After exceeds maxRetryAfterMs', async () => {
    const error = providerError('rate-limited', 429, 30_000);
    const { call, starts, events } = resilient([{ fail: error }]);
    const run = call();
    await jest.advanceTimersByTimeAsync(0);
    expect(run.outcome()).toEqual({ ok: false, error });
    expect(starts()).toEqual([0]);
    expect(events).toEqual([]);
  });

  it('retries a 503 and returns the first success', async () => {
    const { call, starts } = resilient([
      { fail: providerError('transient', 503) },
      { fail: providerError('transient', 502) },
      { respond: 'third time lucky' },
    ]);
    const run = call();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run.outcome()).toMatchObject({
      ok: true,
      value: { aiMessage: { text: 'third time lucky' } },
    });
    expect(starts()).toEqual([0, 100, 300]);
  });

  it('returns after one transient failure and one success', async () => {
    const { call, starts } = resilient([
      { fail: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) },
      { respond: 'ok' },
    ]);
    const run = call();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run.outcome()).toMatchObject({ ok: true, value: { aiMessage: { text: 'ok' } } });
    expect(starts()).toEqual([0, 100]);
  });

  it.each([
    ['context-length', 400],
    ['invalid-request', 400],
    ['misconfigured', 401],
    ['misconfigured', 404],
    ['content-policy', 400],
    ['unknown', 500],
  ] as const)('does not retry %s (%i)', async (kind, status) => {
    const error = providerError(kind, status);
    const { call, starts } = resilient([{ fail: error }]);
    const run = call();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run.outcome()).toEqual({ ok: false, error });
    expect(starts()).toEqual([0]);
  });

  it('honours per-model dispositions and maxAttempts', async () => {
    const error = providerError('rate-limited', 429);
    const { call, starts } = resilient([{ fail: error }], {
      retry: { dispositions: { 'rate-limited': { retrySameModel: false } } },
    });
    const run = call();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run.outcome()).toEqual({ ok: false, error });
    expect(starts()).toEqual([0]);

    const five = resilient([{ fail: providerError('transient', 503) }], {
      retry: { maxAttempts: 5, baseDelayMs: 10, random: () => 0 },
    });
    const fiveRun = five.call();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(fiveRun.outcome()?.ok).toBe(false);
    expect(five.starts()).toHaveLength(5);
  });

  it('does not hammer: with the defaults and zero jitter, at most 3 attempts ever reach the model', async () => {
    const { model, calls } = scriptedChatModel([{ fail: providerError('transient', 503) }]);
    const wrapped = new ResilientChatModel(model, { retry: new RetryPolicy({ random: () => 0 }) });
    const run = settle(wrapped.chat(request));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(run.outcome()?.ok).toBe(false);
    expect(calls).toHaveLength(3);
  });
});

describe('ResilientChatModel.chat timeouts', () => {
  it('times out a silent attempt, aborts it through its signal, and does not retry', async () => {
    const { call, calls } = resilient([{ hang: true }], { timeouts: { attemptMs: 1000 } });
    const run = call();
    await jest.advanceTimersByTimeAsync(999);
    expect(run.outcome()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    const outcome = run.outcome();
    expect(outcome?.ok).toBe(false);
    const error = (outcome as { error: ModelTimeoutException }).error;
    expect(error).toBeInstanceOf(ModelTimeoutException);
    expect(error).toMatchObject({ kind: 'timeout', phase: 'attempt', timeoutMs: 1000 });
    expect(error.message).toContain("'primary'");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal?.aborted).toBe(true);
    expect(calls[0]!.signal?.reason).toBe(error);
  });

  it('reports the timeout, not the SDK error the model raised when it was aborted', async () => {
    const { model } = scriptedChatModel([{ respond: 'unused' }]);
    model.chat = (_request, options) =>
      new Promise((_, reject) => {
        // an SDK that answers an abort with its own error type, before anyone else hears of it
        const signal = options!.signal!;
        const original = signal.addEventListener.bind(signal);
        original('abort', () =>
          reject(Object.assign(new Error('Request was aborted.'), { name: 'APIUserAbortError' })),
        );
      });
    const wrapped = withResilience(model, { name: 'sdk', timeouts: { attemptMs: 100 } });
    const run = settle(wrapped.chat(request));
    await jest.advanceTimersByTimeAsync(100);
    expect(run.outcome()).toMatchObject({
      ok: false,
      error: { name: 'ModelTimeoutException', phase: 'attempt' },
    });
  });

  it('times out a model that ignores its signal too', async () => {
    const { call } = resilient([{ hangDeaf: true }], { timeouts: { attemptMs: 500 } });
    const run = call();
    await jest.advanceTimersByTimeAsync(500);
    expect(run.outcome()).toMatchObject({ ok: false, error: { phase: 'attempt' } });
  });

  it('does not retry a timeout raised by the model itself', async () => {
    const inner = new ModelTimeoutException('attempt', 50, 'inner');
    const { call, starts } = resilient([{ fail: inner }]);
    const run = call();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run.outcome()).toEqual({ ok: false, error: inner });
    expect(starts()).toEqual([0]);
  });

  it('stops retrying when the next wait would pass the deadline, rethrowing the last error', async () => {
    const last = providerError('transient', 503, 800);
    const { call, starts } = resilient(
      [
        { fail: providerError('transient', 503, 800) },
        { fail: providerError('transient', 503, 800) },
        { fail: last },
      ],
      { retry: { maxAttempts: 10 }, timeouts: { deadlineMs: 2000 } },
    );
    const run = call();
    await jest.advanceTimersByTimeAsync(1600);
    // attempts at 0, 800, 1600; a fourth would start at 2400, after the deadline
    expect(run.outcome()).toEqual({ ok: false, error: last });
    expect(starts()).toEqual([0, 800, 1600]);
  });

  it('bounds the whole call by the deadline, aborting the attempt in flight', async () => {
    const { call, calls } = resilient([{ fail: providerError('transient', 503) }, { hang: true }], {
      timeouts: { attemptMs: 10_000, deadlineMs: 1500 },
    });
    const run = call();
    await jest.advanceTimersByTimeAsync(1499);
    expect(run.outcome()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(run.outcome()).toMatchObject({
      ok: false,
      error: { name: 'ModelTimeoutException', phase: 'deadline', timeoutMs: 1500 },
    });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.signal?.aborted).toBe(true);
  });
});

describe('ResilientChatModel.chat abort', () => {
  it("rejects with the caller's reason when aborted during a backoff wait, and stops", async () => {
    const { call, starts } = resilient([{ fail: providerError('rate-limited', 429, 1000) }]);
    const controller = new AbortController();
    const run = call(controller.signal);
    await jest.advanceTimersByTimeAsync(300);
    const reason = new Error('client went away');
    controller.abort(reason);
    await jest.advanceTimersByTimeAsync(0);
    expect(run.outcome()).toEqual({ ok: false, error: reason });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(starts()).toEqual([0]);
  });

  it("rejects with the caller's reason, not a timeout, when aborted during an attempt", async () => {
    const { call, calls } = resilient([{ hang: true }], { timeouts: { attemptMs: 1000 } });
    const controller = new AbortController();
    const run = call(controller.signal);
    await jest.advanceTimersByTimeAsync(200);
    controller.abort();
    await jest.advanceTimersByTimeAsync(0);
    const outcome = run.outcome() as { ok: false; error: unknown };
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toBe(controller.signal.reason);
    expect((outcome.error as Error).name).toBe('AbortError');
    expect(calls[0]!.signal?.aborted).toBe(true);
  });

  it('does not call the model when the signal is already aborted', async () => {
    const { call, calls } = resilient([{ respond: 'never' }]);
    const controller = new AbortController();
    const reason = new Error('already gone');
    controller.abort(reason);
    const run = call(controller.signal);
    await jest.advanceTimersByTimeAsync(0);
    expect(run.outcome()).toEqual({ ok: false, error: reason });
    expect(calls).toHaveLength(0);
  });

  it('passes the caller attributes and observer through, with its own signal', async () => {
    const { call, calls } = resilient([{ respond: 'ok' }]);
    const controller = new AbortController();
    const run = call(controller.signal);
    await jest.advanceTimersByTimeAsync(0);
    expect(run.outcome()?.ok).toBe(true);
    expect(calls[0]!.options.attributes).toEqual({ chat_model_route: 'simple' });
    expect(typeof calls[0]!.options.observer).toBe('function');
    expect(calls[0]!.signal).not.toBe(controller.signal);
    expect(calls[0]!.signal?.aborted).toBe(false);
  });
});

describe('ResilientChatModel as a decorator', () => {
  it("forwards the inner model's capabilities and default parameters", () => {
    const inner: ChatModel = {
      chat: async () => Promise.reject(new Error('unused')),
      supportedCapabilities: () => new Set([Capability.RESPONSE_FORMAT_JSON_SCHEMA]),
      defaultRequestParameters: () => ({ modelName: 'gpt-x', temperature: 0.2 }),
    };
    const wrapped = withResilience(inner);
    expect([...wrapped.supportedCapabilities()]).toEqual([Capability.RESPONSE_FORMAT_JSON_SCHEMA]);
    expect(wrapped.defaultRequestParameters()).toEqual({ modelName: 'gpt-x', temperature: 0.2 });
    expect(wrapped.name).toBe('gpt-x');
    const bare = withResilience({ chat: inner.chat });
    expect(bare.supportedCapabilities().size).toBe(0);
    expect(bare.defaultRequestParameters()).toEqual({});
    expect(bare.name).toBe('model');
  });

  it('also emits retries to the observer given at construction', async () => {
    const own: RoutingEvent[] = [];
    const { call } = resilient([{ fail: providerError('transient', 503) }, { respond: 'ok' }], {
      observer: (event) => own.push(event),
    });
    const run = call();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run.outcome()?.ok).toBe(true);
    expect(own).toEqual([
      { type: 'model-retry', route: 'simple', model: 'primary', attempt: 2, delayMs: 100 },
    ]);
  });

  it('keeps serving when an observer throws', async () => {
    const { model } = scriptedChatModel([
      { fail: providerError('transient', 503) },
      { respond: 'ok' },
    ]);
    const wrapped = withResilience(model, { retry: { random: () => 0 } });
    const run = settle(
      wrapped.chat(request, {
        observer: () => {
          throw new Error('observer bug');
        },
      }),
    );
    await jest.advanceTimersByTimeAsync(1000);
    expect(run.outcome()).toMatchObject({ ok: true, value: { aiMessage: { text: 'ok' } } });
  });

  it('forwards inspection when it wraps a routing component', () => {
    const statuses = [{ model: 'a', state: 'available' as const, failures: 0 }];
    const inner = {
      chat: async () => Promise.reject(new Error('unused')),
      inspectModels: () => statuses,
    };
    expect(withResilience(inner).inspectModels?.()).toBe(statuses);
    expect(withResilience({ chat: inner.chat }).inspectModels).toBeUndefined();
  });

  it.each([
    [undefined, 'model'],
    [{ chat: 'no' }, 'model'],
  ])('rejects a missing or invalid model (%j)', (model, field) => {
    expect(() => new ResilientChatModel(model as never)).toThrow(InvalidConfigurationException);
    expect(() => new ResilientChatModel(model as never)).toThrow(field);
  });

  it.each([
    [{ name: ' ' }, 'name'],
    [{ timeouts: { attemptMs: 0 } }, 'timeouts.attemptMs'],
    [{ timeouts: { idleMs: -5 } }, 'timeouts.idleMs'],
    [{ timeouts: { firstTokenMs: Number.NaN } }, 'timeouts.firstTokenMs'],
    [{ timeouts: { deadlineMs: 2 ** 31 } }, 'timeouts.deadlineMs'],
    [{ retry: { maxAttempts: 0 } }, 'maxAttempts'],
  ])('rejects bad options %j naming %s', (options, field) => {
    const inner = { chat: async () => Promise.reject(new Error('unused')) };
    expect(() => withResilience(inner, options as ResilienceOptions)).toThrow(
      InvalidConfigurationException,
    );
    expect(() => withResilience(inner, options as ResilienceOptions)).toThrow(field);
  });

  it('accepts null to disable a timeout', async () => {
    const { call } = resilient([{ hang: true }], { timeouts: { attemptMs: null } });
    const controller = new AbortController();
    const run = call(controller.signal);
    await jest.advanceTimersByTimeAsync(24 * 3600_000);
    expect(run.outcome()).toBeUndefined();
    expect(jest.getTimerCount()).toBe(0);
    controller.abort();
    await jest.advanceTimersByTimeAsync(0);
    expect(run.outcome()?.ok).toBe(false);
  });
});
