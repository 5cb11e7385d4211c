import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isAbortError, logSafe } from 'nest-model-router';
import { fromFastifyError } from '../http/fastify-errors.js';
import { toWireError } from '../openai/openai-error.js';
import { fromWireError } from './anthropic-error.js';

/**
 * The Messages endpoint's errors in Anthropic's shape (`{ type: 'error', error: { type,
 * message } }`), so the Anthropic SDK raises its typed errors; otherwise as OpenAiExceptionFilter.
 */
@Catch()
export class AnthropicExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const wire = fromWireError(fromFastifyError(exception) ?? toWireError(exception));
    const clientLeft = reply.raw.destroyed && isAbortError(exception);
    if (wire.status >= 500 && !clientLeft) {
      const name = exception instanceof Error ? exception.name : typeof exception;
      this.logger.warn(logSafe(`${wire.status} ${name}: ${wire.body.error.message}`));
    }
    if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) return;
    void reply.status(wire.status).headers(wire.headers).send(wire.body);
  }
}
