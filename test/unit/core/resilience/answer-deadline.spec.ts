import { describe, expect, it, jest } from '@jest/globals';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import { ModelTimeoutException } from '../../../../src/core/errors/timeout-exception.js';
import {
  withResilience,
  type ResilienceOptions,
} from '../../../../src/core/resilience/resilient-chat-model.js';
import { SKETCH_SYNC_MS } from '../../../../src/core/resilience/shared-latency-sketch.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { useFakeTimersFrom } from '../../../support/fake-timers.js';
import { request } from './scripted-model.js';

/** How the next plain call goes: `ms` then an answer of `tokens`, or silence until aborted. */
type Next = { ms: number; tokens: number } | 'silent';

/** A model whose plain calls play `next` (changed by the test), counting its answers. */
function upstream() {
  const state = { next: { ms: 200, tokens: 20 } as Next, answered: 0, reportsUsage: true };
  const model: ChatModel = {
    chat: (_request, options) =>
      new Promise((resolve, reject) => {
        const signal = options?.signal;
        const plan = state.next;
        const timer =
          plan === 'silent'
            ? undefined
            : setTimeout(() => {
                state.answered += 1;
                resolve({
                  aiMessage: { role: 'assistant', text: 'x'.repeat(plan.tokens * 4) },
                  ...(state.reportsUsage ? { tokenUsage: { outputTokens: plan.tokens } } : {}),
                });
              }, plan.ms);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      }),
  };
  return { model, state };
}

/** Runs one plain call to its end in fake time: its answer or error, and how long it took. */
async function timed(pending: Promise<unknown>) {
  const started = Date.now();
  const box: { outcome?: { ok: boolean; value: unknown } } = {};
  pending.then(
    (value) => (box.outcome = { ok: true, value }),
    (value: unknown) => (box.outcome = { ok: false, value }),
  );
  for (;;) {
    await jest.advanceTimersByTimeAsync(250);
    if (box.outcome) return { ...box.outcome, tookMs: Date.now() - started };
  }
}

function learnt(options: ResilienceOptions = {}) {
  const { model, state } = upstream();
  const wrapped = withResilience(model, { name: 'm', retry: { maxAttempts: 1 }, ...options });
  const answer = (req: ChatRequest = request, signal?: AbortSignal) =>
    timed(wrapped.chat(req, signal ? { signal } : {}));
  const warm = async (times: number, ms: number, tokens: number) => {
    state.next = { ms, tokens };
    await timed(Promise.all(Array.from({ length: times }, () => wrapped.chat(request))));
  };
  return { wrapped, state, answer, warm };
}

const make = (options: ResilienceOptions) => () => learnt(options);

const asking = (maxOutputTokens: number): ChatRequest => ({
  ...request,
  parameters: { maxOutputTokens },
});

useFakeTimersFrom(0);

describe('the learnt bound of a plain answer', () => {
  it('holds the configured attempt bound until 20 answers were seen', async () => {
    const { answer, warm, state } = learnt();
    await warm(19, 200, 20);
    state.next = 'silent';
    const cut = await answer();
    expect(cut.value).toBeInstanceOf(ModelTimeoutException);
    expect(cut.value).toMatchObject({ phase: 'attempt', timeoutMs: 60_000 });
  });

  it('fails a silent model over at the 10 s floor once it has shown fast answers', async () => {
    const { answer, warm, state, wrapped } = learnt();
    await warm(20, 200, 20);
    expect(wrapped.answerDeadline.currentMs(undefined)).toBe(10_000);
    state.next = 'silent';
    const cut = await answer();
    expect(cut).toMatchObject({ ok: false, tookMs: 10_000 });
    // a timeout: the group fails over and counts it against the model
    expect(cut.value).toMatchObject({ kind: 'timeout', phase: 'attempt', timeoutMs: 10_000 });
  });

  it('never cuts a slow but steady model: 20 s answers keep the 60 s ceiling', async () => {
    const { answer, warm, wrapped } = learnt();
    await warm(20, 20_000, 12);
    expect(wrapped.answerDeadline.currentMs(undefined)).toBe(60_000);
    const next = await answer();
    expect(next).toMatchObject({ ok: true, tookMs: 20_000 });
  });

  it('gives a long answer asked for (maxOutputTokens) the time a long answer takes', async () => {
    // 500 tokens in 5 s: 10 ms a token
    const { answer, warm, wrapped, state } = learnt();
    await warm(20, 5_000, 500);
    const usual = wrapped.answerDeadline.currentMs(undefined)!;
    expect(usual).toBeGreaterThanOrEqual(15_000); // 3 × 500 tokens × 10 ms, 10 % buckets up
    expect(usual).toBeLessThan(20_000);
    // 1 500 tokens take 15 s: not a stall, though it is three times the usual answer
    state.next = { ms: 15_000, tokens: 1_500 };
    expect(await answer(asking(1_500))).toMatchObject({ ok: true, tookMs: 15_000 });
    expect(wrapped.answerDeadline.currentMs(8_000)).toBe(60_000); // never past the ceiling
    // a short one asked for is still bounded by the floor, not by the usual length
    state.next = 'silent';
    expect(await answer(asking(50))).toMatchObject({ ok: false, tookMs: 10_000 });
  });

  it('sizes an answer from its text when the provider reports no usage', async () => {
    const { warm, wrapped, state } = learnt();
    state.reportsUsage = false;
    await warm(20, 5_000, 500); // 2 000 characters: about 500 tokens
    const usual = wrapped.answerDeadline.currentMs(undefined)!;
    expect(usual).toBeGreaterThanOrEqual(15_000);
    expect(usual).toBeLessThan(20_000);
  });

  it("never counts a caller's abort as a timeout", async () => {
    const { answer, warm, state, wrapped } = learnt();
    await warm(20, 200, 20);
    state.next = 'silent';
    const caller = new AbortController();
    setTimeout(() => caller.abort(new Error('caller left')), 3_000);
    const gone = await answer(request, caller.signal);
    expect(gone).toMatchObject({ ok: false, tookMs: 3_000 });
    expect(gone.value).not.toBeInstanceOf(ModelTimeoutException);
    expect(wrapped.answerDeadline.currentMs(undefined)).toBe(10_000);
  });

  it('is learnt by every replica sharing the store', async () => {
    const store = new InMemoryRouteStateStore(() => Date.now());
    const seen = learnt();
    const other = learnt();
    seen.wrapped.shareLatency({ store });
    other.wrapped.shareLatency({ store });
    await seen.warm(20, 200, 20);
    await jest.advanceTimersByTimeAsync(SKETCH_SYNC_MS);
    expect(other.wrapped.answerDeadline.currentMs(undefined)).toBe(10_000);
  });

  it('takes a fixed answerTimeout as it is, and none when attemptMs is null', async () => {
    const fixed = learnt({ answerTimeout: 5_000 });
    await fixed.warm(20, 20_000, 12);
    expect(fixed.wrapped.answerDeadline.currentMs(undefined)).toBe(5_000);
    const unbounded = learnt({ timeouts: { attemptMs: null } });
    await unbounded.warm(20, 200, 20);
    expect(unbounded.wrapped.answerDeadline.currentMs(undefined)).toBeUndefined();
  });

  it('refuses a bad answerTimeout or adaptive.answer, naming the field', () => {
    expect(make({ answerTimeout: 'fast' as never })).toThrow(InvalidConfigurationException);
    expect(make({ answerTimeout: -1 })).toThrow(/answerTimeout/);
    expect(make({ adaptive: { answer: { floorMs: 0 } } })).toThrow(/adaptive\.answer\.floorMs/);
    expect(make({ adaptive: { answer: { multiplier: 0.5 } } })).toThrow(
      /adaptive\.answer\.multiplier/,
    );
  });
});
