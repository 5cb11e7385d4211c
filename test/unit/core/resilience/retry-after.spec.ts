import { describe, expect, it } from '@jest/globals';
import { parseRetryAfter, retryAfterOf } from '../../../../src/core/resilience/retry-after.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';

const NOW = Date.parse('2025-01-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it('reads Retry-After delta-seconds, whole and fractional', () => {
    expect(parseRetryAfter({ 'retry-after': '3' }, NOW)).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': '0.25' }, NOW)).toBe(250);
    expect(parseRetryAfter({ 'retry-after': '0' }, NOW)).toBe(0);
  });

  it('reads Retry-After as an HTTP date relative to now', () => {
    expect(parseRetryAfter({ 'retry-after': 'Wed, 01 Jan 2025 12:00:05 GMT' }, NOW)).toBe(5000);
    // RFC 850 and asctime forms are also valid HTTP dates
    expect(parseRetryAfter({ 'retry-after': 'Wednesday, 01-Jan-25 12:00:02 GMT' }, NOW)).toBe(2000);
    expect(parseRetryAfter({ 'retry-after': 'Wed Jan  1 12:00:01 2025' }, NOW)).toBe(1000);
  });

  it('treats an HTTP date in the past as no wait, never a negative one', () => {
    expect(parseRetryAfter({ 'retry-after': 'Wed, 01 Jan 2025 11:59:00 GMT' }, NOW)).toBe(0);
  });

  it('prefers retry-after-ms over Retry-After', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' }, NOW)).toBe(1500);
    expect(parseRetryAfter({ 'retry-after-ms': '12.3' }, NOW)).toBe(13);
  });

  it('falls back to Retry-After when retry-after-ms is unreadable', () => {
    expect(parseRetryAfter({ 'retry-after-ms': 'soon', 'retry-after': '2' }, NOW)).toBe(2000);
  });

  it('matches header names case-insensitively and reads Headers objects and arrays', () => {
    expect(parseRetryAfter({ 'Retry-After': '4' }, NOW)).toBe(4000);
    expect(parseRetryAfter({ 'retry-after': ['7', '8'] }, NOW)).toBe(7000);
    expect(parseRetryAfter({ 'retry-after-ms': 350 }, NOW)).toBe(350);
    expect(parseRetryAfter(new Headers({ 'Retry-After-Ms': '600' }), NOW)).toBe(600);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1' }), NOW)).toBe(1000);
  });

  it('returns undefined for garbage, negatives and missing headers', () => {
    for (const value of [
      'soon',
      '-5',
      '1-2',
      '12abc',
      '',
      '  ',
      'NaN',
      'Infinity',
      'Someday 99',
      'May 5',
      'Wed, 99 Foo 2025 12:00:00 GMT',
    ]) {
      expect(parseRetryAfter({ 'retry-after': value }, NOW)).toBeUndefined();
    }
    expect(parseRetryAfter({ 'retry-after-ms': '-1' }, NOW)).toBeUndefined();
    expect(parseRetryAfter({}, NOW)).toBeUndefined();
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), NOW)).toBeUndefined();
  });
});

describe('retryAfterOf', () => {
  it("reads a ProviderException's retryAfterMs", () => {
    const error = new ProviderException('slow down', {
      kind: 'rate-limited',
      provider: 'fake',
      status: 429,
      retryAfterMs: 700,
    });
    expect(retryAfterOf(error, NOW)).toBe(700);
  });

  it('reads the headers of a raw SDK error when the error carries no retryAfterMs', () => {
    const error = Object.assign(new Error('429'), { status: 429, headers: { 'retry-after': '2' } });
    expect(retryAfterOf(error, NOW)).toBe(2000);
  });

  it('is undefined for errors that ask for nothing', () => {
    expect(retryAfterOf(new Error('boom'), NOW)).toBeUndefined();
    expect(retryAfterOf('boom', NOW)).toBeUndefined();
    expect(retryAfterOf({ retryAfterMs: -3 }, NOW)).toBeUndefined();
    expect(retryAfterOf({ retryAfterMs: Number.NaN }, NOW)).toBeUndefined();
  });
});
