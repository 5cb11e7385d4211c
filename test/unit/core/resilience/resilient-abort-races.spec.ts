import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { getEventListeners } from 'node:events';
import { BaseChatModel } from '../../../../src/core/chat/base-chat-model.js';
import type { ChatCallOptions } from '../../../../src/core/chat/chat-model.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { withResilience } from '../../../../src/core/resilience/resilient-chat-model.js';
import { request, response, settle } from './scripted-model.js';

/** A provider whose own call ignores its signal: only BaseChatModel's race can stop it. */
class DeafProvider extends BaseChatModel {
  readonly signals: AbortSignal[] = [];
  constructor(private readonly answer: 'hang' | 'answer') {
    super();
  }
  protected doChat(_request: unknown, options: ChatCallOptions): Promise<ChatResponse> {
    if (options.signal) this.signals.push(options.signal);
    return this.answer === 'hang' ? new Promise(() => undefined) : Promise.resolve(response('ok'));
  }
}

beforeEach(() => {
  jest.useFakeTimers({ now: 0, doNotFake: ['nextTick', 'queueMicrotask'] });
});
afterEach(() => {
  expect(jest.getTimerCount()).toBe(0);
  jest.useRealTimers();
});

describe('ResilientChatModel.chat over a BaseChatModel (one race, the provider base class its own)', () => {
  it('times out an attempt whose provider ignores its signal', async () => {
    const provider = new DeafProvider('hang');
    const model = withResilience(provider, {
      timeouts: { attemptMs: 500 },
      retry: { maxAttempts: 1 },
    });
    const run = settle(model.chat(request));
    await jest.advanceTimersByTimeAsync(500);
    expect(run.outcome()).toMatchObject({ ok: false, error: { phase: 'attempt' } });
    expect(provider.signals[0]!.aborted).toBe(true);
  });

  it("rejects at once with the caller's reason, and leaves no listener on the caller's signal", async () => {
    const provider = new DeafProvider('hang');
    const model = withResilience(provider, { timeouts: { attemptMs: 10_000 } });
    const controller = new AbortController();
    const run = settle(model.chat(request, { signal: controller.signal }));
    await jest.advanceTimersByTimeAsync(10);
    controller.abort();
    await jest.advanceTimersByTimeAsync(0);
    expect(run.outcome()).toEqual({ ok: false, error: controller.signal.reason });
  });

  it("leaves no listener on the caller's signal after many answers", async () => {
    const model = withResilience(new DeafProvider('answer'), { timeouts: { attemptMs: 10_000 } });
    const controller = new AbortController();
    for (let i = 0; i < 50; i++) await model.chat(request, { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
