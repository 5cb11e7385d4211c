import type { ClassifiedError, ErrorKind } from '../errors/error-kind.js';

export type { ClassifiedError, ErrorKind };

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

export function isClassifiedError(error: unknown): error is ClassifiedError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { kind?: unknown }).kind === 'string' &&
    (error as { kind: string }).kind in DEFAULT_DISPOSITIONS
  );
}

export type ErrorClassifier = (error: unknown, signal?: AbortSignal) => ErrorKind;

/**
 * The default classifier: the caller's abort; an error's own kind; an HTTP status or a network
 * error code carried by a raw SDK/fetch error; else `unknown` (the model's failure).
 */
export const classifyError: ErrorClassifier = (error, signal) => {
  if (signal?.aborted) return 'aborted';
  if (isClassifiedError(error)) return error.kind;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    status?: unknown;
    code?: unknown;
    error?: { code?: unknown; type?: unknown } | null;
  };
  // The caller's signal is not aborted here, so an abort came from something else: a timeout.
  if (fields.name === 'AbortError' || fields.name === 'APIUserAbortError') return 'timeout';
  if (fields.name === 'TimeoutError' || fields.name === 'APIConnectionTimeoutError')
    return 'timeout';
  if (typeof fields.status === 'number') {
    const code = typeof fields.code === 'string' ? fields.code : errorCodeOf(fields.error);
    const kind = kindOfHttpStatus(fields.status, code);
    if (kind) return kind;
  }
  if (typeof fields.code === 'string' && TRANSIENT_NETWORK_CODES.has(fields.code))
    return 'transient';
  if (fields.name === 'APIConnectionError') return 'transient';
  return 'unknown';
};

/** Socket-level failures worth one more try on the same model. */
const TRANSIENT_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCodeOf(
  body: { code?: unknown; type?: unknown } | null | undefined,
): string | undefined {
  if (typeof body?.code === 'string') return body.code;
  if (typeof body?.type === 'string') return body.type;
  return undefined;
}

/** Provider codes of an account that cannot pay: waiting does not help, another model may. */
export const QUOTA_CODES: ReadonlySet<string> = new Set([
  'insufficient_quota',
  'billing_hard_limit_reached',
]);

/**
 * The kind of an HTTP error answer, from its status and the provider's error code (OpenAI's
 * `code`, Anthropic's `type`). Pure, so providers can classify their own errors the same way.
 * `undefined` for statuses that are not errors.
 */
export function kindOfHttpStatus(status: number, code?: string): ErrorKind | undefined {
  const normalized = code?.toLowerCase();
  if (normalized !== undefined) {
    if (normalized.includes('context_length') || normalized === 'string_above_max_length') {
      return 'context-length';
    }
    if (normalized.includes('content_policy') || normalized.includes('content_filter')) {
      return 'content-policy';
    }
    if (QUOTA_CODES.has(normalized)) return 'misconfigured';
  }
  return kindOfStatus(status);
}

/**
 * What an HTTP error status means on its own: the one table behind the default classifier (raw
 * SDK and fetch errors) and the providers' error mapping, as the README's error table says.
 * 402 and an exhausted quota are misconfiguration, 409 and 5xx (Anthropic's 529 too) transient,
 * 413 a prompt too long. `undefined` for statuses that are not errors.
 */
export function kindOfStatus(status: number): ErrorKind | undefined {
  if (status === 429) return 'rate-limited';
  if (status === 408) return 'timeout';
  if (status === 401 || status === 402 || status === 403 || status === 404) return 'misconfigured';
  if (status === 413) return 'context-length';
  if (status === 409 || status >= 500) return 'transient';
  if (status >= 400) return 'invalid-request';
  return undefined;
}

/** Per-model overrides of the default dispositions, e.g. `{ 'content-policy': { failover: true } }`. */
export type DispositionOverrides = Partial<Record<ErrorKind, Partial<ErrorDisposition>>>;

export function dispositionOf(kind: ErrorKind, overrides?: DispositionOverrides): ErrorDisposition {
  return { ...DEFAULT_DISPOSITIONS[kind], ...overrides?.[kind] };
}
