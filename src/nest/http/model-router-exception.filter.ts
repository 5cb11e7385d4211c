import {
  type ArgumentsHost,
  BadRequestException,
  Catch,
  HttpException,
  HttpStatus,
} from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import {
  InvalidDecisionResponseException,
  ModelRouterException,
  NoMatchingModelFoundException,
} from '../../core/errors/exceptions.js';
import { InvalidChatRequestException } from '../../core/errors/invalid-chat-request.exception.js';
import { ProviderException } from '../../core/errors/provider-exception.js';
import { uniformRefusal } from '../../core/errors/uniform-refusal.js';
import { ModelTimeoutException } from '../../core/errors/timeout-exception.js';
import type { ErrorKind } from '../../core/resilience/error-classification.js';
import { pathDeeperThan, tooDeepMessage } from '../dto/json-depth.js';
import { scrubCredentials } from '../events/scrub-credentials.js';
import { UnknownRouterException } from '../service/unknown-router.exception.js';

const PROVIDER_STATUS: Partial<Record<ErrorKind, number>> = {
  'invalid-request': HttpStatus.BAD_REQUEST,
  'context-length': HttpStatus.BAD_REQUEST,
  'content-policy': HttpStatus.UNPROCESSABLE_ENTITY,
  'rate-limited': HttpStatus.TOO_MANY_REQUESTS,
  timeout: HttpStatus.GATEWAY_TIMEOUT,
};

/**
 * Answers the library's errors with the HTTP status they mean instead of a bare 500: every model
 * cooling down or failed → 503 with `Retry-After` (every model refusing the request alike → that
 * refusal's status); an unknown router or a malformed request →
 * 400; the provider's verdict on the request (400, 422, 429 with `Retry-After`); a timeout → 504;
 * other provider failures → 502. Messages are scrubbed of credentials. A body nested so deep that
 * validation overflowed the stack → 400 (any other RangeError stays a 500). Works under Express and
 * Fastify: `app.useGlobalFilters(new ModelRouterExceptionFilter(app.getHttpAdapter()))`,
 * `@UseFilters`, or an `APP_FILTER` provider.
 */
@Catch(ModelRouterException, RangeError)
export class ModelRouterExceptionFilter extends BaseExceptionFilter {
  override catch(exception: ModelRouterException | RangeError, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return super.catch(exception, host);
    if (!(exception instanceof ModelRouterException)) return this.catchRangeError(exception, host);
    // every model refused the request alike: answer the refusal, not an outage to retry
    if (
      exception instanceof NoMatchingModelFoundException &&
      exception.retryAfterMs === undefined
    ) {
      exception = uniformRefusal(exception) ?? exception;
    }
    const status = this.statusOf(exception);
    const retryAfterMs = this.retryAfterMsOf(exception);
    const adapter = this.applicationRef ?? this.httpAdapterHost?.httpAdapter;
    if (retryAfterMs !== undefined && adapter) {
      const response: unknown = host.switchToHttp().getResponse();
      (adapter as { setHeader(res: unknown, name: string, value: string): void }).setHeader(
        response,
        'Retry-After',
        String(Math.max(1, Math.ceil(retryAfterMs / 1000))),
      );
    }
    const body = {
      statusCode: status,
      error: exception.name,
      message: scrubCredentials(exception.message),
    };
    super.catch(new HttpException(body, status, { cause: exception }), host);
  }

  /**
   * Nest's ValidationPipe (class-transformer, then class-validator) recurses once per level of a
   * body, ChatRequestDto's included, and overflows the stack on a few thousand nested arrays:
   * the client's body is at fault, so a 400 naming where it is too deep instead of a 500.
   */
  protected catchRangeError(exception: RangeError, host: ArgumentsHost): void {
    const overflowed = exception.message.includes('Maximum call stack size exceeded');
    const body: unknown = host.switchToHttp().getRequest<{ body?: unknown }>().body;
    const deep = overflowed ? pathDeeperThan(body) : undefined;
    if (deep === undefined) return super.catch(exception, host);
    super.catch(new BadRequestException(tooDeepMessage(deep), { cause: exception }), host);
  }

  protected statusOf(exception: ModelRouterException): number {
    if (exception instanceof UnknownRouterException) return HttpStatus.BAD_REQUEST;
    if (exception instanceof InvalidChatRequestException) return HttpStatus.BAD_REQUEST;
    if (exception instanceof NoMatchingModelFoundException) return HttpStatus.SERVICE_UNAVAILABLE;
    if (exception instanceof ModelTimeoutException) return HttpStatus.GATEWAY_TIMEOUT;
    if (exception instanceof ProviderException) {
      return PROVIDER_STATUS[exception.kind] ?? HttpStatus.BAD_GATEWAY;
    }
    if (exception instanceof InvalidDecisionResponseException) return HttpStatus.BAD_GATEWAY;
    return HttpStatus.INTERNAL_SERVER_ERROR;
  }

  protected retryAfterMsOf(exception: ModelRouterException): number | undefined {
    if (exception instanceof NoMatchingModelFoundException) return exception.retryAfterMs;
    if (exception instanceof ProviderException && exception.kind === 'rate-limited') {
      return exception.retryAfterMs;
    }
    return undefined;
  }
}
