import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  Inject,
  Logger,
  Optional,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isAbortError, logSafe } from 'nest-model-router';
import { SecretRedactor } from '../http/config-secrets.js';
import { fromFastifyError } from '../http/fastify-errors.js';
import { GATEWAY_REDACTOR } from '../http/gateway-tokens.js';
import { toWireError } from '../openai/openai-error.js';
import { fromWireError } from './anthropic-error.js';

/**
 * The Messages endpoint's errors in Anthropic's shape (`{ type: 'error', error: { type,
 * message } }`), so the Anthropic SDK raises its typed errors; otherwise as OpenAiExceptionFilter.
 */
@Catch()
export class AnthropicExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  constructor(
    @Optional()
    @Inject(GATEWAY_REDACTOR)
    private readonly redactor: SecretRedactor = new SecretRedactor(),
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    // the provider's message stays; the configuration's secrets never leave
    const wire = fromWireError(
      this.redactor.redactWire(fromFastifyError(exception) ?? toWireError(exception)),
    );
    const uploadAborted = reply.request?.raw.readableAborted === true;
    const clientLeft = uploadAborted || (reply.raw.destroyed && isAbortError(exception));
    if (wire.status >= 500 && !clientLeft) {
      const name = exception instanceof Error ? exception.name : typeof exception;
      this.logger.warn(logSafe(`${wire.status} ${name}: ${wire.body.error.message}`));
    }
    if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) return;
    void reply.status(wire.status).headers(wire.headers).send(wire.body);
  }
}
