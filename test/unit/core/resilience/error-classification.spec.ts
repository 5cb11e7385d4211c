import { describe, expect, it } from '@jest/globals';
import {
  classifyError,
  dispositionOf,
  kindOfHttpStatus,
} from '../../../../src/core/resilience/error-classification.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { ModelTimeoutException } from '../../../../src/core/errors/timeout-exception.js';
import { kindOfProviderError } from '../../../../src/providers/shared/error-kind.js';

function httpError(status: number, extra: Record<string, unknown> = {}) {
  return Object.assign(new Error(`HTTP ${status}`), { status, ...extra });
}

describe('kindOfHttpStatus', () => {
  it.each([
    [429, undefined, 'rate-limited'],
    [500, undefined, 'transient'],
    [502, undefined, 'transient'],
    [503, undefined, 'transient'],
    [504, undefined, 'transient'],
    [529, 'overloaded_error', 'transient'],
    [401, undefined, 'misconfigured'],
    [403, undefined, 'misconfigured'],
    [404, undefined, 'misconfigured'],
    [408, undefined, 'timeout'],
    [400, undefined, 'invalid-request'],
    [422, undefined, 'invalid-request'],
    [400, 'context_length_exceeded', 'context-length'],
    [400, 'content_policy_violation', 'content-policy'],
    [400, 'content_filter', 'content-policy'],
    // the README's error table, as the providers classify the same answers
    [402, undefined, 'misconfigured'],
    [429, 'insufficient_quota', 'misconfigured'],
    [409, undefined, 'transient'],
    [413, undefined, 'context-length'],
  ] as const)('%i %s → %s', (status, code, kind) => {
    expect(kindOfHttpStatus(status, code)).toBe(kind);
  });

  it('is undefined for statuses that are not errors', () => {
    expect(kindOfHttpStatus(200)).toBeUndefined();
    expect(kindOfHttpStatus(302)).toBeUndefined();
  });
});

describe('classifyError', () => {
  it("uses an error's own kind first", () => {
    const error = new ProviderException('x', {
      kind: 'context-length',
      provider: 'p',
      status: 400,
    });
    expect(classifyError(error)).toBe('context-length');
    expect(classifyError(new ModelTimeoutException('attempt', 10, 'm'))).toBe('timeout');
  });

  it("classifies anything as aborted once the caller's signal has aborted", () => {
    const controller = new AbortController();
    controller.abort();
    expect(classifyError(httpError(503), controller.signal)).toBe('aborted');
  });

  it('classifies a raw SDK error like the providers classify the same answer', () => {
    const answers: [number, string[], string][] = [
      [402, [], 'payment required'],
      [409, [], 'conflict'],
      [413, [], 'too large'],
      [429, ['insufficient_quota'], 'quota'],
      [529, ['overloaded_error'], 'Overloaded'],
    ];
    for (const [status, codes, message] of answers) {
      const raw = httpError(status, codes[0] === undefined ? {} : { code: codes[0] });
      expect([status, classifyError(raw)]).toEqual([
        status,
        kindOfProviderError({ status, codes, message }),
      ]);
    }
  });

  it('classifies raw SDK errors by status and provider code', () => {
    expect(classifyError(httpError(429))).toBe('rate-limited');
    expect(classifyError(httpError(503))).toBe('transient');
    expect(classifyError(httpError(401))).toBe('misconfigured');
    expect(classifyError(httpError(400))).toBe('invalid-request');
    expect(classifyError(httpError(400, { code: 'context_length_exceeded' }))).toBe(
      'context-length',
    );
    expect(classifyError(httpError(400, { error: { type: 'content_policy_violation' } }))).toBe(
      'content-policy',
    );
  });

  it('classifies connection resets as transient', () => {
    expect(classifyError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(
      'transient',
    );
  });

  it("treats an abort that is not the caller's as a timeout", () => {
    const controller = new AbortController();
    const abort = new DOMException('aborted', 'AbortError');
    expect(classifyError(abort)).toBe('timeout');
    expect(classifyError(abort, controller.signal)).toBe('timeout');
    expect(classifyError(new DOMException('timed out', 'TimeoutError'))).toBe('timeout');
  });

  it('leaves a plain Error unknown: the model failed', () => {
    expect(classifyError(new Error('boom'))).toBe('unknown');
    expect(classifyError('boom')).toBe('unknown');
    expect(dispositionOf('unknown')).toEqual({
      retrySameModel: false,
      failover: true,
      countsAsFailure: true,
    });
  });
});
