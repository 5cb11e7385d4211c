import {
  type ArgumentsHost,
  BadRequestException,
  Catch,
  HttpException,
  HttpStatus,
} from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { errorAnswer, retryAfterSeconds } from '../../core/errors/error-answer.js';
import { ModelRouterException } from '../../core/errors/exceptions.js';
import { pathDeeperThan, tooDeepMessage } from '../dto/json-depth.js';
import { scrubCredentials } from '../../core/observability/scrub-credentials.js';

/** The part of Express's `res` and Fastify's `reply` that answering needs (both have it). */
interface ReplyLike {
  status(code: number): ReplyLike;
  header(name: string, value: string): ReplyLike;
  send(body: unknown): unknown;
}

/**
 * Answers the library's errors with the HTTP status they mean instead of a bare 500, from the
 * library's one error table (`errorAnswer`, which the demo gateway's OpenAI bodies use too):
 * every model cooling down → 503 with `Retry-After`; every model refusing the request alike →
 * that refusal's 400; an unknown router or model → 404; a malformed request → 400; the provider's
 * verdict (400, 429 with `Retry-After`); a timeout → 504; other failures of the models → 502.
 * Messages are scrubbed of credentials. A body nested so deep that validation overflowed the stack
 * → 400 (any other RangeError stays a 500). Works under Express and Fastify, registered any way:
 * `app.useGlobalFilters(new ModelRouterExceptionFilter())`, `@UseFilters`, or an `APP_FILTER`.
 */
@Catch(ModelRouterException, RangeError)
export class ModelRouterExceptionFilter extends BaseExceptionFilter {
  override catch(exception: ModelRouterException | RangeError, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return super.catch(exception, host);
    if (!(exception instanceof ModelRouterException)) return this.catchRangeError(exception, host);
    const { name, status, code, retryAfterMs, message } = errorAnswer(exception);
    const headers: Record<string, string> =
      retryAfterMs === undefined ? {} : { 'Retry-After': retryAfterSeconds(retryAfterMs) };
    // `code` lets a client tell one 503 from another (every model cooling down, a budget spent)
    // without parsing the message.
    const body = {
      statusCode: status,
      error: name,
      ...(code === null ? {} : { code }),
      message: scrubCredentials(message),
    };
    this.answer(host, status, headers, body, exception);
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
    const answer =
      deep === undefined
        ? new HttpException('Internal server error', HttpStatus.INTERNAL_SERVER_ERROR)
        : new BadRequestException(tooDeepMessage(deep));
    const status = answer.getStatus();
    const response = answer.getResponse();
    const payload =
      typeof response === 'string' ? { statusCode: status, message: response } : response;
    this.answer(host, status, {}, payload, exception);
  }

  /**
   * Through the HTTP adapter when Nest gave the filter one (APP_FILTER, `@UseFilters`); a filter
   * made with `new` and no adapter answers on the framework's reply object itself.
   */
  protected answer(
    host: ArgumentsHost,
    status: number,
    headers: Record<string, string>,
    body: unknown,
    cause: unknown,
  ): void {
    const response: unknown = host.switchToHttp().getResponse();
    const adapter = this.applicationRef ?? this.httpAdapterHost?.httpAdapter;
    if (adapter) {
      if (adapter.isHeadersSent(response)) return;
      const withHeaders = adapter as { setHeader(res: unknown, name: string, value: string): void };
      for (const [name, value] of Object.entries(headers)) {
        withHeaders.setHeader(response, name, value);
      }
      super.catch(new HttpException(body as object, status, { cause }), host);
      return;
    }
    const reply = response as ReplyLike & { headersSent?: boolean; sent?: boolean };
    if (reply.headersSent || reply.sent) return;
    reply.status(status);
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    reply.send(body);
  }
}
