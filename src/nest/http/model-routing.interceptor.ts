import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  Optional,
} from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { type Observable, tap } from 'rxjs';
import type { ServedBy } from '../interceptors/chat-interceptor-context.js';
import {
  MAX_SESSION_LENGTH,
  MODEL_HEADER,
  requestSession,
  ROUTE_HEADER,
  SESSION_HEADER,
  writeServedHeaders,
} from './open-routing-scope.js';
import { USE_ROUTER_METADATA } from './use-router.metadata.js';
import {
  currentRoutingScope,
  RequestRoutingScope,
  runInRoutingScope,
} from './request-routing-scope.js';

export { MAX_SESSION_LENGTH, MODEL_HEADER, ROUTE_HEADER, SESSION_HEADER };

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

  /** The request's session header, trimmed; absent or blank → none (400 when too long). */
  protected sessionOf(request: object | undefined): string | undefined {
    return requestSession(request);
  }

  /** The one writer of these headers; a streaming handler sends what was set with its first bytes. */
  protected setHeaders(response: unknown, served: ServedBy): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (!adapter) return;
    writeServedHeaders(
      {
        isHeadersSent: () => adapter.isHeadersSent(response) as boolean,
        setHeader: (name, value) => adapter.setHeader(response, name, value),
      },
      served,
    );
  }
}
