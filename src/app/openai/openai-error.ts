import { HttpException } from '@nestjs/common';
import {
  InvalidConfigurationException,
  ModelRouterException,
  NoMatchingModelFoundException,
} from '../../core/errors/exceptions.js';
import { InvalidChatRequestException } from '../../core/errors/invalid-chat-request.exception.js';
import { ProviderException } from '../../core/errors/provider-exception.js';
import { uniformRefusal } from '../../core/errors/uniform-refusal.js';
import { ModelTimeoutException } from '../../core/errors/timeout-exception.js';
import { UnknownRouterException } from '../../nest/service/unknown-router.exception.js';

export interface WireError {
  status: number;
  headers: Record<string, string>;
  body: { error: { message: string; type: string; param: string | null; code: string | null } };
}

/** Thrown by the gateway for a model name it cannot serve. */
export class UnknownModelException extends ModelRouterException {
  constructor(
    readonly model: string,
    known: readonly string[],
    /** Why a name that looks servable is not (e.g. its provider has no key); replaces the list. */
    reason?: string,
  ) {
    super(
      reason
        ? `The model '${model}' cannot be served: ${reason}.`
        : `The model '${model}' does not exist on this gateway. Use one of: ${known.join(', ')}; ` +
            `or 'provider/model-id' for a provider declared in the configuration.`,
    );
  }
}

/**
 * Maps any error to OpenAI's error JSON with the status a client can act on. Messages come from
 * our own exceptions and the providers' (already redacted) messages; anything unexpected is
 * reported by class only, so internals and credentials never reach the client.
 */
export function toWireError(error: unknown): WireError {
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse() as
      string | { message?: string | string[]; param?: string | null };
    const raw = typeof response === 'string' ? response : response.message;
    const message = Array.isArray(raw) ? raw.join('; ') : (raw ?? error.message);
    const param = typeof response === 'object' ? (response.param ?? null) : null;
    return wire(
      status,
      message,
      status < 500 ? 'invalid_request_error' : 'server_error',
      null,
      param,
    );
  }
  if (error instanceof UnknownModelException || error instanceof UnknownRouterException) {
    return wire(404, error.message, 'invalid_request_error', 'model_not_found', 'model');
  }
  if (error instanceof InvalidChatRequestException) {
    return wire(400, error.message, 'invalid_request_error', null, 'messages');
  }
  if (error instanceof NoMatchingModelFoundException) {
    if (error.retryAfterMs !== undefined) {
      const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
      return {
        ...wire(503, error.message, 'server_error', 'models_cooling_down'),
        headers: { 'retry-after': String(seconds) },
      };
    }
    const refusal = uniformRefusal(error);
    if (refusal) return fromProvider(refusal);
    const last = error.errors[error.errors.length - 1];
    const lastKind = last instanceof ProviderException ? last : undefined;
    return wire(
      lastKind?.kind === 'timeout' ? 504 : 502,
      `${error.message}${last instanceof Error ? ` Last error: ${last.name}: ${last.message}` : ''}`,
      'server_error',
      'all_models_failed',
    );
  }
  if (error instanceof ProviderException) return fromProvider(error);
  if (error instanceof ModelTimeoutException)
    return wire(504, error.message, 'server_error', 'timeout');
  if (error instanceof InvalidConfigurationException) {
    return wire(500, error.message, 'server_error', 'invalid_configuration');
  }
  if (error instanceof ModelRouterException) return wire(500, error.message, 'server_error');
  const name = error instanceof Error ? error.name : typeof error;
  return wire(500, `Internal error (${name})`, 'server_error');
}

function fromProvider(error: ProviderException): WireError {
  switch (error.kind) {
    case 'invalid-request':
      return wire(400, error.message, 'invalid_request_error', error.code ?? null);
    case 'context-length':
      return wire(
        400,
        error.message,
        'invalid_request_error',
        'context_length_exceeded',
        'messages',
      );
    case 'content-policy':
      return wire(400, error.message, 'invalid_request_error', 'content_policy_violation');
    case 'rate-limited':
      return {
        ...wire(429, error.message, 'rate_limit_error', error.code ?? 'rate_limit_exceeded'),
        headers:
          error.retryAfterMs === undefined
            ? {}
            : { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) },
      };
    case 'timeout':
      return wire(504, error.message, 'server_error', 'timeout');
    default:
      return wire(502, error.message, 'server_error', error.code ?? null);
  }
}

function wire(
  status: number,
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
): WireError {
  return { status, headers: {}, body: { error: { message, type, param, code } } };
}
