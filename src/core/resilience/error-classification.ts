/**
 * How a failed model call is treated. Each kind maps to a disposition (retry the same model?
 * fail over? count against the model's circuit?) that users may override per model.
 */
export type ErrorKind =
  /** 500, 502, 503, 504, connection reset: retry with backoff, then fail over. */
  | 'transient'
  /** 429: honour Retry-After up to a cap, else fail over at once. */
  | 'rate-limited'
  /** The model did not answer in time: never retried on the same model. */
  | 'timeout'
  /** The prompt does not fit: the next model may have a larger window. */
  | 'context-length'
  /** The provider refused the content: the caller gets the provider's reason. */
  | 'content-policy'
  /** 401, 403, 404: the model is misconfigured; cool it down and fail over. */
  | 'misconfigured'
  /** Other 4xx: the caller's own error; no retry, no failover, no cooldown. */
  | 'invalid-request'
  /** The caller aborted: stop everything. */
  | 'aborted'
  /** Anything else (a plain Error included): the model's failure. */
  | 'unknown';

export interface ErrorDisposition {
  retrySameModel: boolean;
  failover: boolean;
  /** Counts against the model's circuit breaker (may start a cooldown). */
  countsAsFailure: boolean;
}

export const DEFAULT_DISPOSITIONS: Readonly<Record<ErrorKind, Readonly<ErrorDisposition>>> = {
  transient: { retrySameModel: true, failover: true, countsAsFailure: true },
  'rate-limited': { retrySameModel: true, failover: true, countsAsFailure: true },
  timeout: { retrySameModel: false, failover: true, countsAsFailure: true },
  'context-length': { retrySameModel: false, failover: true, countsAsFailure: false },
  'content-policy': { retrySameModel: false, failover: false, countsAsFailure: false },
  misconfigured: { retrySameModel: false, failover: true, countsAsFailure: true },
  'invalid-request': { retrySameModel: false, failover: false, countsAsFailure: false },
  aborted: { retrySameModel: false, failover: false, countsAsFailure: false },
  unknown: { retrySameModel: false, failover: true, countsAsFailure: true },
};

/** Errors that know their own kind (provider errors, timeouts) expose it here. */
export interface ClassifiedError {
  readonly kind: ErrorKind;
}

export function isClassifiedError(error: unknown): error is ClassifiedError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { kind?: unknown }).kind === 'string' &&
    (error as { kind: string }).kind in DEFAULT_DISPOSITIONS
  );
}

export type ErrorClassifier = (error: unknown, signal?: AbortSignal) => ErrorKind;

/** The default classifier: an error's own kind, the caller's abort, else `unknown`. */
export const classifyError: ErrorClassifier = (error, signal) => {
  if (signal?.aborted) return 'aborted';
  if (isClassifiedError(error)) return error.kind;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'AbortError' || name === 'APIUserAbortError') return signal ? 'aborted' : 'timeout';
  return 'unknown';
};

export function dispositionOf(
  kind: ErrorKind,
  overrides?: Partial<Record<ErrorKind, Partial<ErrorDisposition>>>,
): ErrorDisposition {
  return { ...DEFAULT_DISPOSITIONS[kind], ...overrides?.[kind] };
}
