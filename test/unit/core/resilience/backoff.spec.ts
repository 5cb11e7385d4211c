import { describe, expect, it } from '@jest/globals';
import { fullJitterBackoff } from '../../../../src/core/resilience/backoff.js';

describe('fullJitterBackoff', () => {
  it('scales the random sample by a ceiling that doubles per retry', () => {
    const backoff = fullJitterBackoff({ baseDelayMs: 100, maxDelayMs: 10_000, random: () => 0.5 });
    expect([1, 2, 3, 4].map(backoff)).toEqual([50, 100, 200, 400]);
  });

  it('never exceeds maxDelayMs', () => {
    const backoff = fullJitterBackoff({ baseDelayMs: 100, maxDelayMs: 300, random: () => 0.999 });
    expect([1, 2, 3, 4, 10].map(backoff)).toEqual([99, 199, 299, 299, 299]);
  });

  it('spreads delays over the whole range (full jitter), zero included', () => {
    const backoff = fullJitterBackoff({ baseDelayMs: 1000, maxDelayMs: 1000, random: () => 0 });
    expect(backoff(1)).toBe(0);
    let sample = 0;
    const spread = fullJitterBackoff({
      baseDelayMs: 1000,
      maxDelayMs: 1000,
      random: () => (sample = (sample + 0.1) % 1),
    });
    const delays = new Set(Array.from({ length: 9 }, () => spread(1)));
    expect(delays.size).toBe(9);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(0);
    for (const delay of delays) expect(delay).toBeLessThan(1000);
  });

  it('clamps a random source that strays outside [0, 1)', () => {
    const backoff = fullJitterBackoff({ baseDelayMs: 100, maxDelayMs: 100, random: () => 7 });
    expect(backoff(1)).toBe(100);
    const negative = fullJitterBackoff({ baseDelayMs: 100, maxDelayMs: 100, random: () => -1 });
    expect(negative(1)).toBe(0);
  });
});
