import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  Inject,
  Logger,
  Optional,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isAbortError, logSafe } from 'nest-model-router/core';
import { ANTHROPIC_PATHS, fromWireError, isAnthropicUrl } from '../anthropic/anthropic-error.js';
import { toWireError, type WireError } from '../openai/openai-error.js';
import { SecretRedactor } from './config-secrets.js';
import { fromFastifyError, quotingShownPath } from './fastify-errors.js';
import { GATEWAY_REDACTOR } from './gateway-tokens.js';
import { unservedPathHint } from './unserved-path-hint.js';

const ROOT_HINT =
  ': this is an OpenAI-compatible API under /v1 (GET /v1/models lists what it serves); ' +
  'open /status in a browser for the live status page';

/**
 * Every error of the gateway as OpenAI's error JSON, with the status a client can act on:
 * 400 invalid body (malformed JSON included), 404 unknown model, 429/503 with Retry-After,
 * 502/504 for providers that failed. Server-side failures are logged by class and message,
 * which the providers have already cleared of keys, and of the configuration's secrets, with
 * control characters escaped.
 */
@Catch()
export class OpenAiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  constructor(
    @Optional()
    @Inject(GATEWAY_REDACTOR)
    protected readonly redactor: SecretRedactor = new SecretRedactor(),
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    // the provider's message stays; the configuration's secrets never leave
    // what Fastify refuses before the Messages controller (malformed JSON, 413, 415) reaches
    // this global filter, not the controller's: it is still answered in Anthropic's shape
    // so does a path under it no route serves (`GET /v1/messages`, `/v1/messages/count_tokens`)
    const path = reply.request?.routeOptions?.url;
    const anthropic =
      path !== undefined ? ANTHROPIC_PATHS.has(path) : isAnthropicUrl(reply.request?.url);
    const shape = anthropic ? fromWireError : this.shape.bind(this);
    const wire = shape(
      this.redactor.redactWire(
        this.quotingShownPath(fromFastifyError(exception) ?? toWireError(exception), reply.request),
      ),
    );
    // a client that went away aborted its own call, or its own upload (a chunked body cut
    // off mid-way fails the body parser): nothing failed on this side
    const uploadAborted = reply.request?.raw.readableAborted === true;
    const clientLeft = uploadAborted || (reply.raw.destroyed && isAbortError(exception));
    if (wire.status >= 500 && !clientLeft) {
      const name = exception instanceof Error ? exception.name : typeof exception;
      this.logger.warn(logSafe(`${wire.status} ${name}: ${wire.body.error.message}`));
    }
    // the client left, or a stream already sent its error event
    if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) return;
    void reply.status(wire.status).headers(wire.headers).send(wire.body);
  }

  /**
   * A 404's `Cannot GET <url>` quotes the path, never the query string; at `/`, where a person
   * opening the gateway's address in a browser lands, it also says where to go, and elsewhere
   * the method the path takes or the paths served.
   */
  private quotingShownPath(wire: WireError, request: FastifyRequest | undefined): WireError {
    const url = request?.url;
    if (url === undefined) return wire;
    let message = quotingShownPath(wire.body.error.message, url);
    if (wire.status === 404 && url.split('?', 1)[0] === '/') message += ROOT_HINT;
    else if (wire.status === 404 && message.startsWith('Cannot ')) {
      message += unservedPathHint(request?.server, request?.method, url);
    }
    return { ...wire, body: { error: { ...wire.body.error, message } } };
  }

  /** The error in the surface's own shape; another API's filter overrides it. */
  protected shape(wire: WireError): {
    status: number;
    headers: Record<string, string>;
    body: { error: { message: string } };
  } {
    return wire;
  }
}
