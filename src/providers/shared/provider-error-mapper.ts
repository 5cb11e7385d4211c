import { abortReason } from '../../core/chat/abort.js';
import type { Clock } from '../../core/clock.js';
import { ProviderException } from '../../core/errors/provider-exception.js';
import type { ErrorKind } from '../../core/resilience/error-classification.js';
import { parseRetryAfter, type HeadersLike } from '../../core/resilience/retry-after.js';
import { kindOfProviderError } from './error-kind.js';
import { redactSecrets, scrubError } from './redact.js';
import { OversizedAnswerError } from './http/provider-http.js';
import { OversizedSseEventError } from './sse-reader.js';

export interface ProviderErrorContext {
  /** e.g. `openai`, `anthropic`, or the name configured for a compatible server. */
  provider: string;
  model: string;
  /** Credentials to redact from messages (the configured API key). */
  secrets: readonly string[];
  /** The caller's signal: when it aborted, its reason is what the caller gets back. */
  signal?: AbortSignal;
  clock?: Clock;
  /** Set when the model's own timeout aborted the call: the error is then kind `timeout`. */
  timeoutMs?: number;
  /**
   * The model id came from the request (`parameters.modelName`), not the configuration: a 404
   * then names the caller's mistake, and must not cool the configured model down.
   */
  modelChosenByRequest?: boolean;
  /** The URL path the call went to (never its host's credentials or query): a 404 names it. */
  requestPath?: string;
}

type SdkError = Error & {
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  code?: unknown;
  type?: unknown;
  apiMessage?: unknown;
  cause?: unknown;
};

/**
 * Turns whatever an SDK call threw into the caller's abort reason (when the caller aborted) or a
 * `ProviderException` with kind, status, provider code, `retryAfterMs` and a message free of the
 * API key. Works for both the `openai` and `@anthropic-ai/sdk` errors (they share a shape).
 */
export function toProviderError(error: unknown, ctx: ProviderErrorContext): unknown {
  if (ctx.signal?.aborted) return abortReason(ctx.signal);
  if (error instanceof ProviderException) return error;
  if (ctx.timeoutMs !== undefined) {
    const cause = error instanceof Error ? { cause: error } : {};
    return exception(ctx, 'timeout', `no answer within its timeout of ${ctx.timeoutMs} ms`, cause);
  }
  const sdkError = (error instanceof Error ? error : new Error(String(error))) as SdkError;
  scrubError(sdkError, ctx.secrets);
  const name = sdkError.constructor?.name ?? sdkError.name;
  if (name === 'APIUserAbortError') {
    return exception(ctx, 'aborted', 'the request was aborted', { cause: sdkError });
  }
  if (name === 'APIConnectionTimeoutError') {
    return exception(ctx, 'timeout', 'the request timed out before the provider answered', {
      cause: sdkError,
    });
  }
  if (name === 'APIConnectionError') {
    return exception(ctx, 'transient', `could not connect: ${connectionDetail(sdkError)}`, {
      cause: sdkError,
    });
  }
  if (typeof sdkError.status === 'number') {
    return fromApiError(sdkError, ctx);
  }
  if (sdkError instanceof OversizedSseEventError || sdkError instanceof OversizedAnswerError) {
    // not retried (the same answer would come again), failed over and cooled down
    return exception(ctx, 'unknown', sdkError.message, { cause: sdkError, code: sdkError.code });
  }
  if (isInterruptedBody(sdkError)) {
    return exception(
      ctx,
      'transient',
      `the connection broke while reading the answer (${connectionDetail(sdkError)})`,
      {
        cause: sdkError,
        code: 'connection_interrupted',
      },
    );
  }
  return exception(ctx, 'unknown', sdkError.message, { cause: sdkError });
}

/** An error object that arrived inside a stream (`data: {"error": …}` / `event: error`). */
export function fromStreamErrorPayload(
  payload: unknown,
  ctx: ProviderErrorContext,
): ProviderException {
  const body = (payload ?? {}) as Record<string, unknown>;
  const codes = [body.code, body.type].filter(
    (value): value is string => typeof value === 'string',
  );
  const message = typeof body.message === 'string' ? body.message : JSON.stringify(payload);
  const kind = kindOfProviderError({ codes, message });
  return exception(
    ctx,
    kind,
    `failed mid-stream: ${message}`,
    codes[0] === undefined ? {} : { code: codes[0] },
  );
}

function fromApiError(error: SdkError, ctx: ProviderErrorContext): ProviderException {
  const status = typeof error.status === 'number' ? error.status : undefined;
  const body = errorBody(error.error);
  const codes = [
    body.code,
    (body.innererror as Record<string, unknown> | undefined)?.code,
    body.type,
    error.code,
    (error as { errorCode?: unknown }).errorCode,
    error.type,
  ].filter(
    (value, index, all): value is string =>
      typeof value === 'string' && all.indexOf(value) === index,
  );
  const providerMessage =
    (typeof body.message === 'string' && body.message) ||
    (typeof error.apiMessage === 'string' && error.apiMessage) ||
    // the SDKs put the status before a plain-text body ('404 404 page not found'): said once
    withoutStatus(error.message, status);
  const configuredKind = kindOfProviderError({
    ...(status === undefined ? {} : { status }),
    codes,
    message: providerMessage,
  });
  const kind = status === 404 && ctx.modelChosenByRequest ? 'invalid-request' : configuredKind;
  const retryAfterMs = parseRetryAfter(
    error.headers as HeadersLike | undefined,
    (ctx.clock ?? Date.now)(),
  );
  const code = codes.find((candidate) => candidate !== 'error');
  return exception(
    ctx,
    kind,
    `${status === undefined ? 'error' : `HTTP ${status}`}${code ? ` (${code})` : ''}: ${providerMessage}` +
      (status === 404 ? notFoundDetail(ctx.requestPath, code) : ''),
    {
      cause: error,
      ...(status === undefined ? {} : { status }),
      ...(code === undefined ? {} : { code }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    },
  );
}

function withoutStatus(message: string, status: number | undefined): string {
  const prefix = `${status} `;
  return status !== undefined && message.startsWith(prefix)
    ? message.slice(prefix.length)
    : message;
}

/**
 * What a 404 asked for: the path, and when it lacks `/v1`, the likely cause. A baseURL without
 * its `/v1` (Ollama's `http://localhost:11434`) otherwise fails only with the server's bare
 * "404 page not found"; a server that names the model as unknown found the path all right.
 */
function notFoundDetail(path: string | undefined, code: string | undefined): string {
  if (path === undefined) return '';
  const hint =
    /(^|\/)v1(\/|$)/.test(path) || code === 'model_not_found'
      ? ''
      : '; is /v1 missing from baseURL?';
  return ` (POST ${path}${hint})`;
}

/** OpenAI: `{ message, type, code }`; Anthropic: `{ type: 'error', error: { type, message } }`. */
function errorBody(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null) return {};
  const outer = raw as Record<string, unknown>;
  if (outer.type === 'error' && typeof outer.error === 'object' && outer.error !== null) {
    return outer.error as Record<string, unknown>;
  }
  if (typeof outer.error === 'object' && outer.error !== null)
    return outer.error as Record<string, unknown>;
  return outer;
}

function exception(
  ctx: ProviderErrorContext,
  kind: ErrorKind,
  detail: string,
  extra: { cause?: unknown; status?: number; code?: string; retryAfterMs?: number },
): ProviderException {
  // only what the provider said is redacted: a provider named like its key ('ollama') keeps its name
  const said = redactSecrets(detail, ctx.secrets);
  const message = `${ctx.provider} model '${ctx.model}' ${said.startsWith('failed') ? said : `failed: ${said}`}`;
  return new ProviderException(message, {
    kind,
    provider: ctx.provider,
    model: ctx.model,
    ...extra,
  });
}

/** A body that broke off: undici's `terminated`, a reset socket, or JSON cut mid-way. */
function isInterruptedBody(error: SdkError): boolean {
  return (
    error instanceof SyntaxError ||
    /terminated|other side closed|socket|ECONNRESET|premature close|UND_ERR/i.test(
      `${error.message} ${String(error.cause)} ${String((error.cause as { code?: unknown })?.code)}`,
    )
  );
}

function connectionDetail(error: SdkError): string {
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const causeMessage = typeof cause?.message === 'string' ? cause.message : undefined;
  return [error.message, code ?? causeMessage].filter(Boolean).join(': ');
}
