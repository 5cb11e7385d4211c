import { toWireError, type WireError } from '../openai/openai-error.js';

export interface AnthropicWireError {
  status: number;
  headers: Record<string, string>;
  body: { type: 'error'; error: { type: string; message: string } };
}

/** The surface that answers in Anthropic's error shape, also before its controller runs. */
export const ANTHROPIC_PATHS: ReadonlySet<string> = new Set(['/v1/messages']);

/**
 * Whether a request's URL is on Anthropic's surface, routed or not: `/v1/messages` and what
 * Anthropic serves under it (`/v1/messages/count_tokens`, `/batches`), so that the Anthropic SDK
 * reads even a 404, or a refusal sent before routing, as its own error.
 */
export function isAnthropicUrl(url: string | undefined): boolean {
  if (url === undefined || !url.startsWith('/v1/messages')) return false;
  const next = url.charCodeAt('/v1/messages'.length);
  // end, '/', '?'
  return Number.isNaN(next) || next === 47 || next === 63;
}

/** An OpenAI-shaped error in the dialect of the surface `url` is on. */
export function inDialectOf(
  url: string | undefined,
  wire: WireError,
): WireError | AnthropicWireError {
  return isAnthropicUrl(url) ? fromWireError(wire) : wire;
}

/**
 * Any error in Anthropic's error shape. The status, message and Retry-After come from the one
 * table every surface uses (`errorAnswer`, through the OpenAI mapping, which also takes the body
 * pipe's 400s); only the `type` is Anthropic's, chosen by status as its API does.
 */
export function toAnthropicError(error: unknown): AnthropicWireError {
  return fromWireError(toWireError(error));
}

/** An OpenAI-shaped error (the table's answer, or Fastify's refusal) in Anthropic's shape. */
export function fromWireError({ status, headers, body }: WireError): AnthropicWireError {
  return {
    status,
    headers,
    body: { type: 'error', error: { type: anthropicType(status), message: body.error.message } },
  };
}

function anthropicType(status: number): string {
  switch (status) {
    case 400:
    case 413:
    case 415:
    case 422:
      return status === 413 ? 'request_too_large' : 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    default:
      return status < 500 ? 'invalid_request_error' : 'api_error';
  }
}
