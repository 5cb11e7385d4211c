import { describe, expect, it, jest } from '@jest/globals';
import { LatencySketch } from '../../../../src/core/resilience/latency-sketch.js';
import {
  AdaptiveDeadline,
  FIRST_TOKEN_DEADLINE_DEFAULTS,
} from '../../../../src/core/resilience/adaptive-deadline.js';
import { withResilience } from '../../../../src/core/resilience/resilient-chat-model.js';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import type { ChatModel, ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import { request, response } from './scripted-model.js';
import { useFakeTimersFrom } from '../../../support/fake-timers.js';

describe('LatencySketch', () => {
  it('answers quantiles within 10 % above the true value', () => {
    const sketch = new LatencySketch();
    for (let ms = 1; ms <= 100; ms += 1) sketch.record(ms * 10);
    const p50 = sketch.quantile(0.5)!;
    const p99 = sketch.quantile(0.99)!;
    expect(p50).toBeGreaterThanOrEqual(500);
    expect(p50).toBeLessThanOrEqual(550);
    expect(p99).toBeGreaterThanOrEqual(990);
    expect(p99).toBeLessThanOrEqual(1089);
  });

  it('forgets all but the last two generations, so a model that changed speed is relearnt', () => {
    const sketch = new LatencySketch({ generationSize: 10 });
    for (let i = 0; i < 10; i += 1) sketch.record(10_000);
    for (let i = 0; i < 20; i += 1) sketch.record(100);
    expect(sketch.count()).toBe(20);
    expect(sketch.quantile(1)).toBeLessThan(111);
  });

  it('ignores what is not a duration', () => {
    const sketch = new LatencySketch();
    sketch.record(Number.NaN);
    sketch.record(-1);
    expect(sketch.quantile(0.5)).toBeUndefined();
  });
});

const make = (initial?: number) =>
  new AdaptiveDeadline(initial, {}, FIRST_TOKEN_DEADLINE_DEFAULTS, 'adaptive.firstToken');

describe('AdaptiveDeadline', () => {
  it('holds the configured value until it has enough samples', () => {
    const deadline = make(12_000);
    for (let i = 0; i < 19; i += 1) deadline.observe(200);
    expect(deadline.currentMs()).toBe(12_000);
    deadline.observe(200);
    expect(deadline.currentMs()).toBe(5_000); // 3 × ~200 ms is under the floor
  });

  it('follows a slow model up to the ceiling', () => {
    const deadline = make(12_000);
    for (let i = 0; i < 20; i += 1) deadline.observe(30_000);
    const learnt = deadline.currentMs()!;
    expect(learnt).toBeGreaterThanOrEqual(90_000);
    expect(learnt).toBeLessThanOrEqual(99_000);
    for (let i = 0; i < 20; i += 1) deadline.observe(90_000);
    expect(deadline.currentMs()).toBe(120_000);
  });

  it.each([
    [{ percentile: 0 }, 'adaptive.firstToken.percentile'],
    [{ multiplier: 0.5 }, 'adaptive.firstToken.multiplier'],
    [{ minSamples: 1.5 }, 'adaptive.firstToken.minSamples'],
    [{ floorMs: 10, ceilingMs: 5 }, 'adaptive.firstToken.ceilingMs'],
  ])('refuses %j naming the field', (options, field) => {
    expect(
      () => new AdaptiveDeadline(1, options, FIRST_TOKEN_DEADLINE_DEFAULTS, 'adaptive.firstToken'),
    ).toThrow(field);
  });
});

/** A stream whose first token comes after `firstTokenMs[call]` ms of fake time. */
function timedStreamModel(firstTokenMs: number[]): ChatModel {
  let call = 0;
  return {
    chat: async () => response('x'),
    async *stream(_request, options): AsyncGenerator<ChatStreamEvent> {
      const wait = firstTokenMs[call++] ?? 0;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, wait);
        options?.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(options.signal!.reason);
        });
      });
      yield { type: 'text-delta', text: 'x' };
      yield { type: 'complete', response: response('x') };
    },
  };
}

async function drainStream(stream: AsyncIterable<ChatStreamEvent>): Promise<unknown> {
  try {
    for await (const _ of stream) void _;
    return 'ok';
  } catch (error) {
    return error;
  }
}

describe('ResilientChatModel with adaptive first-token deadlines', () => {
  useFakeTimersFrom(0);

  it('fails a silent stream over at the learnt deadline once fast first tokens were seen', async () => {
    const model = withResilience(timedStreamModel([...Array(20).fill(100), 60_000]), {
      name: 'fast',
      retry: { maxAttempts: 1 },
    });
    for (let i = 0; i < 20; i += 1) {
      const done = drainStream(model.stream(request));
      await jest.advanceTimersByTimeAsync(100);
      expect(await done).toBe('ok');
    }
    expect(model.deadlines.firstTokenMs()).toBe(5_000);
    const slow = drainStream(model.stream(request));
    await jest.advanceTimersByTimeAsync(5_000);
    expect(await slow).toMatchObject({ phase: 'first-token', timeoutMs: 5_000 });
  });

  it('lets a steadily slow model answer after it learnt its pace', async () => {
    const model = withResilience(timedStreamModel(Array(21).fill(9_000)), {
      name: 'slow',
      retry: { maxAttempts: 1 },
      timeouts: { firstTokenMs: 10_000 },
    });
    for (let i = 0; i < 21; i += 1) {
      const done = drainStream(model.stream(request));
      await jest.advanceTimersByTimeAsync(9_000);
      expect(await done).toBe('ok');
    }
    expect(model.deadlines.firstTokenMs()).toBeGreaterThanOrEqual(27_000);
  });

  it('refuses a firstTokenTimeout that is neither adaptive nor a duration', () => {
    expect(() =>
      withResilience(timedStreamModel([]), { firstTokenTimeout: 'soon' as 'adaptive' }),
    ).toThrow(InvalidConfigurationException);
  });
});
