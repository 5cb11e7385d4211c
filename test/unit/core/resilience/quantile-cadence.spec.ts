import { describe, expect, it } from '@jest/globals';
import {
  AdaptiveDeadline,
  FIRST_TOKEN_DEADLINE_DEFAULTS,
} from '../../../../src/core/resilience/adaptive-deadline.js';
import { answerDeadline } from '../../../../src/core/resilience/answer-deadline.js';
import { QUANTILE_READ_EVERY } from '../../../../src/core/resilience/quantile-cadence.js';
import { HedgePolicy } from '../../../../src/core/group/hedge-policy.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';

const answerOf = (tokens: number): ChatResponse => ({
  aiMessage: { role: 'assistant', text: '' },
  tokenUsage: { outputTokens: tokens },
});

describe('learnt values read their quantiles every few samples', () => {
  it('a stream deadline learns at its 20th sample, then moves only every 16 samples', () => {
    const deadline = new AdaptiveDeadline(
      12_000,
      {},
      FIRST_TOKEN_DEADLINE_DEFAULTS,
      'adaptive.firstToken',
    );
    for (let i = 0; i < 19; i += 1) deadline.observe(200);
    expect(deadline.currentMs()).toBe(12_000);
    deadline.observe(200);
    expect(deadline.currentMs()).toBe(5_000);
    for (let i = 1; i < QUANTILE_READ_EVERY; i += 1) {
      deadline.observe(30_000);
      expect(deadline.currentMs()).toBe(5_000);
    }
    deadline.observe(30_000);
    expect(deadline.currentMs()).toBeGreaterThanOrEqual(90_000);
  });

  it('a plain answer bound learns at its 20th answer, then moves only every 16 answers', () => {
    const bound = answerDeadline({}, { attemptMs: 60_000 });
    for (let i = 0; i < 19; i += 1) bound.observe(200, answerOf(20));
    expect(bound.currentMs(undefined)).toBe(60_000);
    bound.observe(200, answerOf(20));
    expect(bound.currentMs(undefined)).toBe(10_000);
    for (let i = 1; i < QUANTILE_READ_EVERY; i += 1) {
      bound.observe(20_000, answerOf(12));
      expect(bound.currentMs(undefined)).toBe(10_000);
    }
    bound.observe(20_000, answerOf(12));
    expect(bound.currentMs(undefined)).toBe(60_000);
  });

  it('a hedge delay learns at its 20th answer, then moves every 16 answers, however many calls', () => {
    const policy = new HedgePolicy({ after: 'p95' });
    for (let i = 0; i < 19; i += 1) policy.observe(100);
    expect(policy.delayMs()).toBeUndefined();
    policy.observe(100);
    const fast = policy.delayMs()!;
    expect(fast).toBeGreaterThanOrEqual(100);
    expect(fast).toBeLessThan(111);
    for (let i = 1; i < QUANTILE_READ_EVERY; i += 1) policy.observe(5_000);
    // calls that bring no answer leave the delay as it was read
    for (let i = 0; i < 3 * QUANTILE_READ_EVERY; i += 1) expect(policy.delayMs()).toBe(fast);
    policy.observe(5_000);
    expect(policy.delayMs()).toBeGreaterThanOrEqual(5_000);
  });
});
