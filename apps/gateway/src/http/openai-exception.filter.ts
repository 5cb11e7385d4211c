import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isAbortError, logSafe } from 'nest-model-router';
import { toWireError } from '../openai/openai-error.js';
import { fromFastifyError } from './fastify-errors.js';

/**
 * Every error of the gateway as OpenAI's error JSON, with the status a client can act on:
 * 400 invalid body (malformed JSON included), 404 unknown model, 429/503 with Retry-After,
 * 502/504 for providers that failed. Server-side failures are logged by class and message,
 * which the providers have already cleared of keys, with control characters escaped.
 */
@Catch()
export class OpenAiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const wire = fromFastifyError(exception) ?? toWireError(exception);
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
}
