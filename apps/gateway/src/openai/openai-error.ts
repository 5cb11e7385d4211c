import { HttpException } from '@nestjs/common';
import { boundedMessage, errorAnswer, retryAfterSeconds } from 'nest-model-router/core';
import { UnknownRouterException } from 'nest-model-router';
import { closestName } from 'nest-model-router/config';

export interface WireError {
  status: number;
  headers: Record<string, string>;
  body: {
    error: { message: string; type: string; param: string | null; code: string | null } & Record<
      string,
      unknown
    >;
  };
}

/** Thrown by the gateway for a model name it cannot serve (404 `model_not_found`). */
export class UnknownModelException extends UnknownRouterException {
  constructor(
    readonly model: string,
    known: readonly string[],
    /** Why a name that looks servable is not (e.g. its provider has no key); replaces the list. */
    reason?: string,
    /** The name meant, when the caller knows better than spelling (`openai/gpt-4o`). */
    suggestion: string | undefined = closestName(model, known),
  ) {
    super(
      reason
        ? `The model '${model}' cannot be served: ${reason}.`
        : `The model '${model}' does not exist on this gateway${meant(suggestion)}. ` +
            `Use one of: ${known.join(', ')}; ` +
            `or 'provider/model-id' for a provider declared in the configuration.`,
      model,
      known,
    );
  }
}

/** ` (did you mean 'auto'?)` for `Auto`, `demo-min`: a letter or two from a name served. */
function meant(suggestion: string | undefined): string {
  return suggestion === undefined ? '' : ` (did you mean '${suggestion}'?)`;
}

/**
 * Any error as OpenAI's error JSON: Nest's HTTP exceptions (the body pipe's 400s, the resolver's
 * 404s) as they are, everything else through the library's error table (`errorAnswer`), the
 * same one ModelRouterExceptionFilter uses.
 */
export function toWireError(error: unknown): WireError {
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 415) return UNSUPPORTED_MEDIA_TYPE;
    const response = error.getResponse() as
      | string
      | {
          message?: string | string[];
          param?: string | null;
          code?: string;
          type?: string;
          headers?: Record<string, string>;
        };
    const raw = typeof response === 'string' ? response : response.message;
    const message = boundedMessage(Array.isArray(raw) ? raw.join('; ') : (raw ?? error.message));
    const own = typeof response === 'object' ? response : {};
    const param = own.param ?? null;
    // the gateway's own 401/403/429 name OpenAI's type and code (invalid_api_key…)
    const type = own.type ?? (status < 500 ? 'invalid_request_error' : 'server_error');
    const headers = own.headers ?? {};
    return { status, headers, body: { error: { message, type, param, code: own.code ?? null } } };
  }
  const { status, type, code, param, message, retryAfterMs, details } = errorAnswer(error);
  return {
    status,
    headers: retryAfterMs === undefined ? {} : retryHeaders(retryAfterMs),
    body: { error: { message, type, param, code, ...details } },
  };
}

/** The longest `Retry-After` OpenAI's and Anthropic's SDKs wait for before retrying. */
const LONGEST_SDK_WAIT_MS = 60_000;

/**
 * `Retry-After`, and `x-should-retry: false` when the wait is longer than the SDKs wait: they
 * ignore such a Retry-After and retry at once (a spent budget that resets in days answered each
 * client call three times), but honour the header OpenAI's API sends for that.
 */
function retryHeaders(retryAfterMs: number): Record<string, string> {
  const headers: Record<string, string> = { 'retry-after': retryAfterSeconds(retryAfterMs) };
  if (retryAfterMs > LONGEST_SDK_WAIT_MS) headers['x-should-retry'] = 'false';
  return headers;
}

/** Fastify refuses a body with no parser for its type before Nest runs; only JSON has one. */
const UNSUPPORTED_MEDIA_TYPE: WireError = {
  status: 415,
  headers: {},
  body: {
    error: {
      message:
        'The request body must be JSON: send it with Content-Type: application/json ' +
        '(text, form and multipart bodies are not accepted)',
      type: 'invalid_request_error',
      param: null,
      code: 'unsupported_media_type',
    },
  },
};
