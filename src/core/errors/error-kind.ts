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

/** An error that says which kind it is (the library's exceptions do). */
export interface ClassifiedError {
  readonly kind: ErrorKind;
}
