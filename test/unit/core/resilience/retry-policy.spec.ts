import { describe, expect, it, jest } from '@jest/globals';
import { RetryPolicy } from '../../../../src/core/resilience/retry-policy.js';
import { ProviderException } from '../../../../src/core/errors/provider-exception.js';
import { ModelTimeoutException } from '../../../../src/core/errors/timeout-exception.js';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import type { ErrorKind } from '../../../../src/core/resilience/error-classification.js';
import { settle } from './scripted-model.js';
import { useFakeTimersFrom } from '../../../support/fake-timers.js';

function providerError(kind: ErrorKind, status: number, retryAfterMs?: number) {
  return new ProviderException(`provider failed with ${status}`, {
    kind,
    provider: 'fake',
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

const half = () => 0.5;

describe('RetryPolicy.decide', () => {
  const policy = new RetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, random: half });

  it('retries transient and rate-limited errors with full-jitter backoff', () => {
    expect(policy.decide(providerError('transient', 503), 1, { now: 0 })).toEqual({
      retry: true,
      kind: 'transient',
      delayMs: 50,
      retryAfter: false,
    });
    expect(policy.decide(providerError('rate-limited', 429), 2, { now: 0 })).toMatchObject({
      retry: true,
      delayMs: 100,
    });
  });

  it('stops after maxAttempts (3 by default)', () => {
    expect(policy.decide(providerError('transient', 503), 3, { now: 0 })).toEqual({
      retry: false,
      kind: 'transient',
      reason: 'attempts-exhausted',
    });
  });

  it.each([
    ['context-length', 400],
    ['content-policy', 400],
    ['invalid-request', 400],
    ['misconfigured', 401],
  ] as const)('does not retry %s', (kind, status) => {
    expect(policy.decide(providerError(kind, status), 1, { now: 0 })).toEqual({
      retry: false,
      kind,
      reason: 'not-retryable',
    });
  });

  it('does not retry a plain Error (unknown: the group fails over)', () => {
    expect(policy.decide(new Error('boom'), 1, { now: 0 })).toMatchObject({
      retry: false,
      reason: 'not-retryable',
    });
  });

  it('never retries a timeout', () => {
    expect(policy.decide(new ModelTimeoutException('attempt', 100), 1, { now: 0 })).toMatchObject({
      retry: false,
      reason: 'timeout',
    });
  });

  it("gives up once the caller's signal has aborted", () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      policy.decide(providerError('transient', 503), 1, { now: 0, signal: controller.signal }),
    ).toMatchObject({ retry: false, reason: 'aborted' });
  });

  it('waits exactly the Retry-After the provider asked for, up to maxRetryAfterMs', () => {
    expect(policy.decide(providerError('rate-limited', 429, 2000), 1, { now: 0 })).toEqual({
      retry: true,
      kind: 'rate-limited',
      delayMs: 2000,
      retryAfter: true,
    });
    expect(policy.decide(providerError('rate-limited', 429, 2001), 1, { now: 0 })).toEqual({
      retry: false,
      kind: 'rate-limited',
      reason: 'retry-after-too-long',
    });
  });

  it('gives up when the wait would reach the deadline', () => {
    expect(
      policy.decide(providerError('transient', 503, 500), 1, { now: 1000, deadlineAt: 1500 }),
    ).toMatchObject({ retry: false, reason: 'deadline' });
    expect(
      policy.decide(providerError('transient', 503, 499), 1, { now: 1000, deadlineAt: 1500 }),
    ).toMatchObject({ retry: true, delayMs: 499 });
  });

  it('applies per-model disposition overrides and a custom classifier', () => {
    const noRateLimitRetry = new RetryPolicy({
      dispositions: { 'rate-limited': { retrySameModel: false } },
    });
    expect(noRateLimitRetry.decide(providerError('rate-limited', 429), 1)).toMatchObject({
      retry: false,
      reason: 'not-retryable',
    });
    const retryPlainErrors = new RetryPolicy({
      random: half,
      classify: (error) => ((error as Error).message === 'flaky' ? 'transient' : 'unknown'),
    });
    expect(retryPlainErrors.decide(new Error('flaky'), 1)).toMatchObject({ retry: true });
    expect(retryPlainErrors.decide(new Error('broken'), 1)).toMatchObject({ retry: false });
  });

  it('falls back to the default classifier when a custom one throws', () => {
    const broken = new RetryPolicy({
      classify: () => {
        throw new Error('classifier bug');
      },
    });
    expect(broken.classify(providerError('transient', 503))).toBe('transient');
  });
});

describe('RetryPolicy validation', () => {
  it.each([
    [{ maxAttempts: 0 }, 'maxAttempts'],
    [{ maxAttempts: 2.5 }, 'maxAttempts'],
    [{ maxAttempts: 11 }, 'maxAttempts'],
    [{ baseDelayMs: -1 }, 'baseDelayMs'],
    [{ maxDelayMs: Number.NaN }, 'maxDelayMs'],
    [{ baseDelayMs: 500, maxDelayMs: 100 }, 'maxDelayMs'],
    [{ maxRetryAfterMs: Infinity }, 'maxRetryAfterMs'],
    [
      { dispositions: { timeout: { retrySameModel: true } } },
      'dispositions.timeout.retrySameModel',
    ],
    [
      { dispositions: { aborted: { retrySameModel: true } } },
      'dispositions.aborted.retrySameModel',
    ],
    [{ classify: 'yes' as never }, 'classify'],
  ])('rejects %j naming %s', (options, field) => {
    expect(() => new RetryPolicy(options)).toThrow(InvalidConfigurationException);
    expect(() => new RetryPolicy(options)).toThrow(field);
  });
});

describe('RetryPolicy.execute', () => {
  useFakeTimersFrom(0);

  it('waits the backoff between attempts and returns the first success', async () => {
    const policy = new RetryPolicy({ baseDelayMs: 100, random: half });
    const starts: number[] = [];
    const retries: unknown[] = [];
    const run = settle(
      policy.execute(
        async (attempt) => {
          starts.push(Date.now());
          if (attempt < 3) throw providerError('transient', 503);
          return 'ok';
        },
        { onRetry: ({ attempt, delayMs, kind }) => retries.push({ attempt, delayMs, kind }) },
      ),
    );
    await jest.advanceTimersByTimeAsync(1000);
    expect(run.outcome()).toEqual({ ok: true, value: 'ok' });
    expect(starts).toEqual([0, 50, 150]);
    expect(retries).toEqual([
      { attempt: 2, delayMs: 50, kind: 'transient' },
      { attempt: 3, delayMs: 100, kind: 'transient' },
    ]);
  });

  it('rethrows the last error unchanged when it gives up', async () => {
    const policy = new RetryPolicy({ maxAttempts: 2, random: () => 0 });
    const errors = [providerError('transient', 502), providerError('transient', 503)];
    const run = settle(policy.execute(async (attempt) => Promise.reject(errors[attempt - 1])));
    await jest.advanceTimersByTimeAsync(10);
    expect(run.outcome()).toEqual({ ok: false, error: errors[1] });
  });

  it('rejects with the abort reason when the signal aborts during a backoff wait', async () => {
    const policy = new RetryPolicy({ baseDelayMs: 1000, maxDelayMs: 1000, random: () => 0.99 });
    const controller = new AbortController();
    let calls = 0;
    const run = settle(
      policy.execute(
        async () => {
          calls++;
          throw providerError('transient', 503);
        },
        { signal: controller.signal },
      ),
    );
    await jest.advanceTimersByTimeAsync(100);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await jest.advanceTimersByTimeAsync(0);
    expect(run.outcome()).toEqual({ ok: false, error: reason });
    expect(calls).toBe(1);
    expect(jest.getTimerCount()).toBe(0);
  });
});
