import { describe, expect, it, jest } from '@jest/globals';
import type { ChatModel, ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import { withResilience } from '../../../../src/core/resilience/resilient-chat-model.js';
import { useFakeTimersFrom } from '../../../support/fake-timers.js';
import { request, response } from './scripted-model.js';

/** Waits `ms` of fake time, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** A model that takes `ms` to answer a plain call, and as long to a stream's first token. */
function thinking(ms: number): ChatModel {
  return {
    chat: async (_request, options) => {
      await pause(ms, options?.signal);
      return response('thought');
    },
    async *stream(_request, options): AsyncGenerator<ChatStreamEvent> {
      await pause(ms, options?.signal);
      yield { type: 'text-delta', text: 'thought' };
      yield { type: 'complete', response: response('thought') };
    },
  };
}

async function settle<T>(pending: Promise<T>, ms: number): Promise<T | unknown> {
  const caught = pending.catch((error: unknown) => error);
  await jest.advanceTimersByTimeAsync(ms);
  return caught;
}

async function streamed(model: ChatModel, ms: number): Promise<unknown> {
  const drain = async () => {
    for await (const event of model.stream!(request)) void event;
    return 'answered';
  };
  return settle(drain(), ms);
}

describe('the cold first-token wait of a model whose plain answers are slow', () => {
  useFakeTimersFrom(0);

  it('cuts a 30 s first token at 12 s while nothing was shown', async () => {
    const model = withResilience(thinking(30_000), { name: 'reasoner' });
    expect(await streamed(model, 30_000)).toMatchObject({
      phase: 'first-token',
      timeoutMs: 12_000,
    });
  });

  it('lets a model that answered in 30 s three times stream its 30 s first token', async () => {
    const model = withResilience(thinking(30_000), { name: 'reasoner' });
    for (let i = 0; i < 3; i += 1) {
      expect(await settle(model.chat(request), 30_000)).toMatchObject({
        aiMessage: { text: 'thought' },
      });
    }
    // 3 × the median answer, capped at the attempt bound (60 s)
    expect(model.deadlines.firstTokenMs()).toBe(60_000);
    expect(await streamed(model, 30_000)).toBe('answered');
  });

  it("leaves a fast model's cold wait at 12 s, whatever one long answer took", async () => {
    let call = 0;
    const paces = [2_000, 2_000, 50_000, 2_000];
    const model = withResilience(
      {
        chat: async (_r, options) =>
          pause(paces[call++]!, options?.signal).then(() => response('x')),
      },
      { name: 'fast' },
    );
    for (const ms of paces) await settle(model.chat(request), ms);
    expect(model.deadlines.firstTokenMs()).toBe(12_000);
  });

  it('keeps a fixed or configured first-token wait as it is', async () => {
    const fixed = withResilience(thinking(30_000), { name: 'fixed', firstTokenTimeout: 15_000 });
    const configured = withResilience(thinking(30_000), {
      name: 'configured',
      timeouts: { firstTokenMs: 8_000 },
    });
    for (const model of [fixed, configured]) {
      for (let i = 0; i < 3; i += 1) await settle(model.chat(request), 30_000);
    }
    expect(fixed.deadlines.firstTokenMs()).toBe(15_000);
    expect(configured.deadlines.firstTokenMs()).toBe(8_000);
  });
});
