import { abortReason, throwIfAborted } from '../chat/abort.js';
import { systemClock, type Clock } from '../clock.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import { fullJitterBackoff, type Backoff } from './backoff.js';
import {
  classifyError,
  dispositionOf,
  type DispositionOverrides,
  type ErrorClassifier,
  type ErrorKind,
} from './error-classification.js';
import { retryAfterOf } from './retry-after.js';
import { sleep, systemTimers, type Timers } from './timers.js';

/** The longest delay a Node timer can hold (about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** More attempts than this on one model would hammer a failing provider: fail over instead. */
export const MAX_ATTEMPTS_LIMIT = 10;

export interface RetryPolicyOptions {
  /** Attempts on the same model in one call, the first included. Default 3; 1 disables retries. */
  maxAttempts?: number;
  /** Backoff ceiling of the first retry; doubles per retry. Default 250 ms. */
  baseDelayMs?: number;
  /** Backoff ceiling never exceeds this. Default 2000 ms. */
  maxDelayMs?: number;
  /**
   * The longest `Retry-After` worth waiting for on this model. A longer one gives up at once so
   * the group fails over instead of holding the caller. Default 2000 ms.
   */
  maxRetryAfterMs?: number;
  /** Uniform in [0, 1); injectable so tests get exact delays. Default `Math.random`. */
  random?: () => number;
  /** Replaces the default classifier (`classifyError`) for this model. */
  classify?: ErrorClassifier;
  /** Overrides the default dispositions for this model. */
  dispositions?: DispositionOverrides;
}

export type GiveUpReason =
  /** The call's signal aborted (the caller, or the call's deadline). */
  | 'aborted'
  /** A timeout is never retried on the same model: a silent model stays silent. */
  | 'timeout'
  /** The error's disposition says `retrySameModel: false`. */
  | 'not-retryable'
  | 'attempts-exhausted'
  /** The provider asked for a longer wait than `maxRetryAfterMs`. */
  | 'retry-after-too-long'
  /** The wait would end at or after the call's deadline. */
  | 'deadline';

export type RetryDecision =
  | {
      retry: true;
      kind: ErrorKind;
      delayMs: number;
      /** The provider set the delay. */ retryAfter: boolean;
    }
  | { retry: false; kind: ErrorKind; reason: GiveUpReason };

export interface RetryDecisionContext {
  /** The caller's signal: once aborted, nothing is retried. */
  signal?: AbortSignal;
  /** Epoch ms; resolves an HTTP-date `Retry-After`. Default `Date.now()`. */
  now?: number;
  /** Epoch ms after which no attempt may start. */
  deadlineAt?: number;
}

export interface RetryEvent {
  /** The attempt that starts after the delay (2 for the first retry). */
  attempt: number;
  delayMs: number;
  kind: ErrorKind;
  error: unknown;
}

export interface RetryExecuteOptions {
  /** Aborts the whole execution, backoff waits included; it rejects with the signal's reason. */
  signal?: AbortSignal;
  deadlineAt?: number;
  clock?: Clock;
  timers?: Timers;
  /** Called before each backoff wait. */
  onRetry?(event: RetryEvent): void;
  /** Fewer attempts than the policy's for this execution (1: a half-open probe). */
  maxAttempts?: number;
}

/**
 * When and how long to retry a failed call on the same model: bounded attempts, exponential
 * backoff with full jitter, the provider's `Retry-After` honoured up to a cap, and only for
 * errors whose disposition says `retrySameModel`. Immutable; one instance may serve many models.
 */
export class RetryPolicy {
  readonly maxAttempts: number;
  readonly maxRetryAfterMs: number;
  protected readonly backoff: Backoff;
  protected readonly classifier: ErrorClassifier;
  protected readonly dispositions: DispositionOverrides | undefined;

  constructor(options: RetryPolicyOptions = {}) {
    this.maxAttempts = options.maxAttempts ?? 3;
    const baseDelayMs = options.baseDelayMs ?? 250;
    const maxDelayMs = options.maxDelayMs ?? Math.max(2000, baseDelayMs);
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 2000;
    if (
      !Number.isInteger(this.maxAttempts) ||
      this.maxAttempts < 1 ||
      this.maxAttempts > MAX_ATTEMPTS_LIMIT
    ) {
      throw new InvalidConfigurationException(
        `Retry option 'maxAttempts' must be an integer from 1 to ${MAX_ATTEMPTS_LIMIT} (got ${String(options.maxAttempts)}); more attempts would hammer a failing provider, let the group fail over instead`,
      );
    }
    requireDelay('baseDelayMs', baseDelayMs);
    requireDelay('maxDelayMs', maxDelayMs);
    requireDelay('maxRetryAfterMs', this.maxRetryAfterMs);
    if (maxDelayMs < baseDelayMs) {
      throw new InvalidConfigurationException(
        `Retry option 'maxDelayMs' (${maxDelayMs}) must not be below 'baseDelayMs' (${baseDelayMs})`,
      );
    }
    for (const kind of ['timeout', 'aborted'] as const) {
      if (options.dispositions?.[kind]?.retrySameModel === true) {
        throw new InvalidConfigurationException(
          `Retry option 'dispositions.${kind}.retrySameModel' cannot be true: ${kind === 'timeout' ? 'a model that did not answer in time is never retried on the same model; it fails over' : "the caller's abort stops everything"}`,
        );
      }
    }
    if (options.classify !== undefined && typeof options.classify !== 'function') {
      throw new InvalidConfigurationException(`Retry option 'classify' must be a function`);
    }
    this.backoff = fullJitterBackoff({ baseDelayMs, maxDelayMs, random: options.random });
    this.classifier = options.classify ?? classifyError;
    this.dispositions = options.dispositions;
  }

  /** The error's kind under this policy's classifier. */
  classify(error: unknown, signal?: AbortSignal): ErrorKind {
    if (signal?.aborted) return 'aborted';
    try {
      return this.classifier(error, signal);
    } catch {
      // A broken custom classifier must not hide the model's own error: use the default.
      return classifyError(error, signal);
    }
  }

  /** Whether attempt number `attempt` (1-based), which failed with `error`, is retried, and when. */
  decide(error: unknown, attempt: number, context: RetryDecisionContext = {}): RetryDecision {
    const kind = this.classify(error, context.signal);
    if (kind === 'aborted') return { retry: false, kind, reason: 'aborted' };
    if (kind === 'timeout') return { retry: false, kind, reason: 'timeout' };
    if (!dispositionOf(kind, this.dispositions).retrySameModel) {
      return { retry: false, kind, reason: 'not-retryable' };
    }
    if (attempt >= this.maxAttempts) return { retry: false, kind, reason: 'attempts-exhausted' };
    const now = context.now ?? Date.now();
    const retryAfterMs = retryAfterOf(error, now);
    if (retryAfterMs !== undefined && retryAfterMs > this.maxRetryAfterMs) {
      return { retry: false, kind, reason: 'retry-after-too-long' };
    }
    const delayMs = retryAfterMs ?? this.backoff(attempt);
    if (context.deadlineAt !== undefined && now + delayMs >= context.deadlineAt) {
      return { retry: false, kind, reason: 'deadline' };
    }
    return { retry: true, kind, delayMs, retryAfter: retryAfterMs !== undefined };
  }

  /**
   * Runs `fn` until it succeeds or the policy gives up, then rethrows the last error unchanged
   * (so the group layer classifies it again); an aborted `signal` rejects with its reason.
   */
  async execute<T>(
    fn: (attempt: number) => Promise<T>,
    options: RetryExecuteOptions = {},
  ): Promise<T> {
    const clock = options.clock ?? systemClock;
    const { signal } = options;
    for (let attempt = 1; ; attempt++) {
      throwIfAborted(signal);
      try {
        return await fn(attempt);
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        if (options.maxAttempts !== undefined && attempt >= options.maxAttempts) throw error;
        const decision = this.decide(error, attempt, {
          signal,
          now: clock(),
          deadlineAt: options.deadlineAt,
        });
        if (!decision.retry) throw error;
        options.onRetry?.({
          attempt: attempt + 1,
          delayMs: decision.delayMs,
          kind: decision.kind,
          error,
        });
        await sleep(decision.delayMs, signal, options.timers ?? systemTimers);
      }
    }
  }
}

export function retryPolicy(options: RetryPolicyOptions = {}): RetryPolicy {
  return new RetryPolicy(options);
}

function requireDelay(field: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) {
    throw new InvalidConfigurationException(
      `Retry option '${field}' must be a number of milliseconds from 0 to ${MAX_TIMER_MS} (got ${String(value)})`,
    );
  }
}
