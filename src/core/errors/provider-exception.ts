import type { ClassifiedError, ErrorKind } from './error-kind.js';
import { ModelRouterException } from './exceptions.js';

export interface ProviderExceptionDetails {
  kind: ErrorKind;
  provider: string;
  model?: string;
  /** HTTP status, when the provider answered. */
  status?: number;
  /** The provider's error code, e.g. `context_length_exceeded`, `rate_limit_exceeded`. */
  code?: string;
  /** From `retry-after-ms` or `Retry-After` (seconds or an HTTP date). */
  retryAfterMs?: number;
  cause?: unknown;
}

/** One typed error for every provider failure. Its message never contains a credential. */
export class ProviderException extends ModelRouterException implements ClassifiedError {
  readonly kind: ErrorKind;
  readonly provider: string;
  readonly model?: string;
  readonly status?: number;
  readonly code?: string;
  readonly retryAfterMs?: number;

  constructor(message: string, details: ProviderExceptionDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.provider = details.provider;
    if (details.model !== undefined) this.model = details.model;
    if (details.status !== undefined) this.status = details.status;
    if (details.code !== undefined) this.code = details.code;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}
