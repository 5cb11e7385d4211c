import { describe, expect, it } from '@jest/globals';
import { kindOfProviderError } from '../../../src/providers/shared/error-kind.js';

describe('kindOfProviderError', () => {
  it.each([
    [429, [], 'slow down', 'rate-limited'],
    [429, ['insufficient_quota'], 'You exceeded your current quota', 'misconfigured'],
    [500, [], 'oops', 'transient'],
    [502, [], 'bad gateway', 'transient'],
    [529, ['overloaded_error'], 'Overloaded', 'transient'],
    [409, [], 'conflict', 'transient'],
    [408, [], 'request timeout', 'timeout'],
    [401, ['invalid_api_key'], 'bad key', 'misconfigured'],
    [402, [], 'payment required', 'misconfigured'],
    [403, [], 'forbidden', 'misconfigured'],
    [404, ['model_not_found'], 'no such model', 'misconfigured'],
    [400, ['context_length_exceeded'], 'too long', 'context-length'],
    [
      400,
      ['invalid_request_error'],
      'prompt is too long: 210000 tokens > 200000 maximum',
      'context-length',
    ],
    [413, ['request_too_large'], 'too large', 'context-length'],
    [400, ['content_filter'], 'filtered', 'content-policy'],
    [400, ['content_policy_violation'], 'no', 'content-policy'],
    [
      400,
      ['invalid_request_error'],
      'Output blocked by content filtering policy',
      'content-policy',
    ],
    [400, [], 'temperature must be <= 2', 'invalid-request'],
    [422, [], 'unprocessable', 'invalid-request'],
  ])('HTTP %s %j "%s" → %s', (status, codes, message, kind) => {
    expect(kindOfProviderError({ status, codes, message })).toBe(kind);
  });

  it('does not read a server error as a context-length problem from its wording', () => {
    expect(
      kindOfProviderError({ status: 500, codes: [], message: 'context length computation failed' }),
    ).toBe('transient');
  });

  it('classifies in-stream errors (no status) by code, transient by default', () => {
    expect(kindOfProviderError({ codes: ['server_error'], message: 'x' })).toBe('transient');
    expect(kindOfProviderError({ codes: ['rate_limit_error'], message: 'x' })).toBe('rate-limited');
    expect(kindOfProviderError({ codes: ['context_length_exceeded'], message: 'x' })).toBe(
      'context-length',
    );
  });
});
