import {
  BadRequestException,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  Optional,
} from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { type Observable, tap } from 'rxjs';
import type { ServedBy } from '../interceptors/chat-interceptor-context.js';
import { toHeaderValue } from './header-value.js';
import { USE_ROUTER_METADATA } from './use-router.metadata.js';
import {
  currentRoutingScope,
  RequestRoutingScope,
  runInRoutingScope,
} from './request-routing-scope.js';

export const ROUTE_HEADER = 'x-model-router-route';
export const MODEL_HEADER = 'x-model-router-model';
/** Request header naming the conversation's session (see SESSION_ATTRIBUTE). */
export const SESSION_HEADER = 'x-model-router-session';
/** Longer session keys are refused: they become store (Redis) keys. */
export const MAX_SESSION_LENGTH = 256;

/**
 * For controllers: makes the handler's `@UseRouter(name)` (method first, then class) the router of
 * every RoutingChatService call made while handling the request, and reports the route and model
 * that served it in the `x-model-router-route` / `x-model-router-model` response headers.
 * A request header `x-model-router-session: <key>` becomes the session of those calls, so the
 * conversation stays on its model (prompt caches stay warm) unless that model is unavailable.
 * Works under Express and Fastify (headers go through the HTTP adapter).
 */
@Injectable()
export class ModelRoutingInterceptor implements NestInterceptor {
  constructor(
    protected readonly reflector: Reflector,
    @Optional() protected readonly adapterHost?: HttpAdapterHost,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const router = this.reflector.getAllAndOverride<string | undefined>(USE_ROUTER_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    const outer = currentRoutingScope();
    const http = context.getType() === 'http' ? context.switchToHttp() : undefined;
    const request: object | undefined = http?.getRequest();
    // applied twice (globally and by @UseRouter): the outer run already owns this request
    if (outer && request !== undefined && outer.request === request) {
      return next.handle();
    }
    const scope = new RequestRoutingScope(router, request, this.sessionOf(request));
    const response: unknown = http?.getResponse();
    if (response !== undefined) {
      scope.onServed((served) => this.setHeaders(response, served));
    }
    // Nest binds the handler's async context when handle() is called: call it inside the scope
    return runInRoutingScope(scope, () => next.handle()).pipe(
      tap(() => {
        if (response !== undefined) this.setHeaders(response, scope.call?.servedBy() ?? {});
      }),
    );
  }

  /** The request's session header, trimmed; absent or blank → none. */
  protected sessionOf(request: object | undefined): string | undefined {
    const headers = (request as { headers?: Record<string, unknown> } | undefined)?.headers;
    const raw = headers?.[SESSION_HEADER];
    const value = (Array.isArray(raw) ? raw[0] : raw) as unknown;
    if (typeof value !== 'string' || value.trim() === '') return undefined;
    const session = value.trim();
    if (session.length > MAX_SESSION_LENGTH) {
      throw new BadRequestException(
        `${SESSION_HEADER} is ${session.length} characters long; send a session key of at most ` +
          `${MAX_SESSION_LENGTH} characters (e.g. a UUID).`,
      );
    }
    return session;
  }

  /** The one writer of these headers; a streaming handler sends what was set with its first bytes. */
  protected setHeaders(response: unknown, served: ServedBy): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (!adapter || adapter.isHeadersSent(response)) return;
    if (served.route !== undefined) {
      adapter.setHeader(response, ROUTE_HEADER, toHeaderValue(served.route));
    }
    if (served.model !== undefined) {
      adapter.setHeader(response, MODEL_HEADER, toHeaderValue(served.model));
    }
  }
}
