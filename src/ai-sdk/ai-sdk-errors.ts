import { abortReason } from '../core/chat/abort.js';
import { ProviderException } from '../core/errors/provider-exception.js';
import type { ErrorKind } from '../core/resilience/error-classification.js';
import { parseRetryAfter } from '../core/resilience/retry-after.js';
import { kindOfProviderError } from '../providers/shared/error-kind.js';
import { redactSecrets, scrubError } from '../providers/shared/redact.js';

export interface AiSdkErrorContext {
  /** The language model's `provider` (e.g. `openai.chat`, `amazon-bedrock`). */
  provider: string;
  /** The name the model goes by in routes and events. */
  model: string;
  signal: AbortSignal | undefined;
}

/**
 * The AI SDK's errors by name (`AI_<Class>`), for the ones that are not an HTTP answer: whether
 * the request could never work (the caller's), the model is not set up, or the answer was broken.
 * Matched by name because `@ai-sdk/provider` is only a type here: nothing of it runs.
 */
const KIND_OF_NAMED: Record<string, ErrorKind> = {
  AI_InvalidPromptError: 'invalid-request',
  AI_InvalidArgumentError: 'invalid-request',
  AI_LoadAPIKeyError: 'misconfigured',
  AI_LoadSettingError: 'misconfigured',
  AI_NoSuchModelError: 'misconfigured',
  AI_EmptyResponseBodyError: 'transient',
  AI_InvalidResponseDataError: 'transient',
  AI_JSONParseError: 'transient',
  AI_TypeValidationError: 'transient',
};

interface ApiCallErrorFields {
  name?: unknown;
  message?: unknown;
  statusCode?: unknown;
  isRetryable?: unknown;
  responseHeaders?: unknown;
  responseBody?: unknown;
  data?: unknown;
  cause?: unknown;
}

/**
 * What a language model threw, as the providers of this library report it: the caller's abort
 * reason when the caller aborted; else a `ProviderException` whose kind comes from the same table
 * (`kindOfProviderError`: status, provider codes, wording), so failover, retries and cooldowns
 * treat an AI SDK model like ours. `APICallError` gives the status, body and `Retry-After`; one
 * without a status is a connection failure (transient); an abort nobody asked for, a timeout.
 */
export function toProviderException(error: unknown, ctx: AiSdkErrorContext): unknown {
  if (ctx.signal?.aborted) return abortReason(ctx.signal);
  if (error instanceof ProviderException) return error;
  // kept as `cause`: the provider's text may echo a key, as with our own providers' SDK errors
  scrubError(error, []);
  const fields = (typeof error === 'object' && error !== null ? error : {}) as ApiCallErrorFields;
  const name = typeof fields.name === 'string' ? fields.name : '';
  const said = redactSecrets(
    typeof fields.message === 'string' ? fields.message : String(error),
  ).slice(0, 2_000);
  if (name === 'AbortError' || name === 'TimeoutError') {
    return exception(ctx, 'timeout', `no answer in time (${said})`, { cause: error });
  }
  if (typeof fields.statusCode === 'number') return fromApiCall(fields, said, error, ctx);
  if (name === 'AI_APICallError') {
    // no status: the request never got an answer (refused, reset, DNS)
    return exception(ctx, 'transient', `could not get an answer: ${said}`, { cause: error });
  }
  return exception(ctx, KIND_OF_NAMED[name] ?? 'unknown', said, { cause: error });
}

/**
 * What an `error` stream part carried: an Error is classified as any other; a provider's error
 * object (`{ message, type, code }`, what `@ai-sdk/openai-compatible` passes on) as our providers
 * classify an error event inside a stream: transient, unless its code says rate limit.
 */
export function fromStreamErrorPart(payload: unknown, ctx: AiSdkErrorContext): unknown {
  if (ctx.signal?.aborted || payload instanceof Error) return toProviderException(payload, ctx);
  const body = errorBody(payload) ?? {};
  const codes = [body.code, body.type].filter((code): code is string => typeof code === 'string');
  const message = redactSecrets(
    typeof body.message === 'string' ? body.message : String(JSON.stringify(payload)),
  ).slice(0, 2_000);
  const kind = kindOfProviderError({ codes, message });
  return exception(ctx, kind, `failed mid-stream: ${message}`, {
    cause: payload,
    ...(codes[0] === undefined ? {} : { code: codes[0] }),
  });
}

function fromApiCall(
  fields: ApiCallErrorFields,
  said: string,
  error: unknown,
  ctx: AiSdkErrorContext,
): ProviderException {
  const status = fields.statusCode as number;
  const body = errorBody(fields.data) ?? errorBody(parseJson(fields.responseBody)) ?? {};
  const codes = [body.code, body.type].filter(
    (code, index, all): code is string => typeof code === 'string' && all.indexOf(code) === index,
  );
  const message = redactSecrets(typeof body.message === 'string' ? body.message : said);
  const kind = kindOfProviderError({ status, codes, message });
  const retryAfterMs =
    fields.responseHeaders && typeof fields.responseHeaders === 'object'
      ? parseRetryAfter(fields.responseHeaders as Record<string, string>, Date.now())
      : undefined;
  const code = codes.find((candidate) => candidate !== 'error');
  return exception(ctx, kind, `HTTP ${status}${code ? ` (${code})` : ''}: ${message}`, {
    cause: error,
    status,
    ...(code === undefined ? {} : { code }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** OpenAI's `{ error: { message, type, code } }`, Anthropic's `{ type: 'error', error: {…} }`, or flat. */
function errorBody(raw: unknown): Record<string, unknown> | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const outer = raw as Record<string, unknown>;
  const inner = outer.error;
  return typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : outer;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || text.length > 65_536) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function exception(
  ctx: AiSdkErrorContext,
  kind: ErrorKind,
  detail: string,
  extra: { cause: unknown; status?: number; code?: string; retryAfterMs?: number },
): ProviderException {
  const said = detail.startsWith('failed') ? detail : `failed: ${detail}`;
  return new ProviderException(`${ctx.provider} model '${ctx.model}' ${said}`, {
    kind,
    provider: ctx.provider,
    model: ctx.model,
    ...extra,
  });
}
