import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { toWireError, type WireError } from '../openai/openai-error.js';

/**
 * Fastify rejects some requests before any handler runs (malformed JSON, a body too large, an
 * unsupported content type, a malformed URL); its errors carry the status, which is the client's
 * to see.
 */
export function fromFastifyError(exception: unknown): WireError | undefined {
  if (!(exception instanceof Error)) return undefined;
  const { statusCode, code } = exception as Error & { statusCode?: unknown; code?: unknown };
  if (typeof code !== 'string' || !code.startsWith('FST_')) return undefined;
  if (typeof statusCode !== 'number' || statusCode < 400 || statusCode >= 500) return undefined;
  return clientError(statusCode, exception.message, code.toLowerCase());
}

/**
 * Fastify's `frameworkErrors`: its router answers a malformed URL (`/v1/models/%ZZ`, 400) and a
 * route parameter over `maxParamLength` (414) before Nest sees the request, so the gateway's
 * exception filter never runs for them.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const wire = fromFastifyError(error) ?? toWireError(error);
  // Fastify quotes the whole URL, query string and all, and a path of any length
  const message = quotingShownPath(wire.body.error.message, request.url);
  void reply
    .status(wire.status)
    .headers(wire.headers)
    .send({ error: { ...wire.body.error, message } });
}

/** Longest part of a request's path that an error message quotes. */
const SHOWN_PATH_LENGTH = 200;

/**
 * `message` with every quote of the request's URL (or of its path) replaced by the path alone,
 * cut to 200 characters: a query string is where clients paste keys (`?api_key=…`), and an
 * answer never repeats them, nor 16 KiB of path.
 */
export function quotingShownPath(message: string, url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  if (path === '') return message;
  const shown =
    path.length <= SHOWN_PATH_LENGTH
      ? path
      : `${path.slice(0, SHOWN_PATH_LENGTH)}… (${path.length - SHOWN_PATH_LENGTH} more characters)`;
  return message.split(url).join(shown).split(path).join(shown);
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refuses what it cannot read on the socket,
 * before Fastify has a request: headers (URL included) over its limit, a request not received
 * within `requestTimeout`, malformed HTTP. Written as Fastify's default does, in OpenAI's shape.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // a reset connection has no one left to answer
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const wire = connectionError(error.code);
  if (socket.writable) {
    const body = JSON.stringify(wire.body);
    socket.write(
      `HTTP/1.1 ${wire.status} ${STATUS_CODES[wire.status]}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function connectionError(code: string | undefined): WireError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return clientError(
        431,
        `The request's URL and headers exceed ${maxHeaderSize} bytes; send a shorter URL and fewer or smaller headers`,
        'request_header_fields_too_large',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return clientError(
        408,
        'The request was not received in time; send the whole request, body included, at once',
        'request_timeout',
      );
    default:
      return clientError(400, 'The request is not valid HTTP', 'bad_request');
  }
}

function clientError(status: number, message: string, code: string): WireError {
  return {
    status,
    headers: {},
    body: { error: { message, type: 'invalid_request_error', param: null, code } },
  };
}
