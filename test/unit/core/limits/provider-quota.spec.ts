import { describe, expect, it } from '@jest/globals';
import {
  exhaustedUntil,
  pickRateLimitHeaders,
} from '../../../../src/core/limits/provider-quota.js';

const now = Date.parse('2030-01-01T00:00:00Z');

describe('provider remaining-quota headers', () => {
  it("OpenAI: a spent quota blocks for its reset duration ('6m0s', '1.5s', '20ms')", () => {
    expect(
      exhaustedUntil(
        { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '6m0s' },
        now,
      ),
    ).toBe(now + 360_000);
    expect(
      exhaustedUntil(
        { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '1.5s' },
        now,
      ),
    ).toBe(now + 1500);
    expect(
      exhaustedUntil(
        { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '20ms' },
        now,
      ),
    ).toBe(now + 20);
  });

  it('Anthropic: RFC 3339 reset times; the latest exhausted quota wins', () => {
    expect(
      exhaustedUntil(
        {
          'anthropic-ratelimit-requests-remaining': '0',
          'anthropic-ratelimit-requests-reset': '2030-01-01T00:00:10Z',
          'anthropic-ratelimit-output-tokens-remaining': '0',
          'anthropic-ratelimit-output-tokens-reset': '2030-01-01T00:00:40Z',
        },
        now,
      ),
    ).toBe(now + 40_000);
  });

  it('quota left, or no headers: not blocked; spent without a readable reset: a minute', () => {
    expect(exhaustedUntil({ 'x-ratelimit-remaining-requests': '12' }, now)).toBeUndefined();
    expect(exhaustedUntil({}, now)).toBeUndefined();
    expect(
      exhaustedUntil(
        { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': 'soon' },
        now,
      ),
    ).toBe(now + 60_000);
  });

  it('picks only the rate-limit headers, from a Headers object or a record', () => {
    const headers = new Headers({
      'x-ratelimit-remaining-requests': '3',
      'set-cookie': 'secret',
      authorization: 'k',
    });
    expect(pickRateLimitHeaders(headers)).toEqual({ 'x-ratelimit-remaining-requests': '3' });
    expect(pickRateLimitHeaders({ 'content-type': 'json' })).toBeUndefined();
  });
});
