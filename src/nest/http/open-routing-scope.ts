import { BadRequestException } from '@nestjs/common';
import type { ServedBy } from '../interceptors/chat-interceptor-context.js';
import { toHeaderValue } from './header-value.js';
import { RequestRoutingScope } from './request-routing-scope.js';

export const ROUTE_HEADER = 'x-model-router-route';
export const MODEL_HEADER = 'x-model-router-model';
/** Response header: the id of the routing decision, which feedback names. */
export const DECISION_HEADER = 'x-model-router-decision';
/** Request header naming the conversation's session (see SESSION_ATTRIBUTE). */
export const SESSION_HEADER = 'x-model-router-session';
/** Response header naming the budget that sent the call to its fallback. */
export const DOWNGRADED_HEADER = 'x-model-router-downgraded';
/** `hit`, `semantic-hit`, `miss` or `bypass`, on calls whose router is cached. */
export const CACHE_HEADER = 'x-model-router-cache';
/** A semantic hit's similarity to the cached question. */
export const CACHE_SIMILARITY_HEADER = 'x-model-router-cache-similarity';
/** Longer session keys are refused: they become store (Redis) keys. */
export const MAX_SESSION_LENGTH = 256;

/** Where a request's routing headers go: its response, through whatever framework serves it. */
export interface ServedHeaders {
  isHeadersSent(): boolean;
  setHeader(name: string, value: string): void;
}

/**
 * A request's RequestRoutingScope, for a handler that passes it to RoutingChatService itself
 * (`options.scope`) instead of through ModelRoutingInterceptor's AsyncLocalStorage: on Node 20
 * an AsyncLocalStorage in use puts hooks on every promise of the process, a large share of a
 * gateway's work per request. The same scope as the interceptor's: the `x-model-router-session`
 * header is the session (400 when too long; `sessionKey` may map it), the route and model
 * headers are written as soon as they are known.
 */
export function openRoutingScope(
  request: object | undefined,
  headers: ServedHeaders | undefined,
  router?: string,
  /**
   * Turns the client's (checked) session into the session key the call pins under, or into
   * none: a gateway namespaces sessions per API key and bounds how many each key holds.
   */
  sessionKey?: (session: string) => string | undefined,
): RequestRoutingScope {
  const session = requestSession(request);
  const keyed = session === undefined || sessionKey === undefined ? session : sessionKey(session);
  const scope = new RequestRoutingScope(router, request, keyed);
  if (headers !== undefined) scope.onServed((served) => writeServedHeaders(headers, served));
  return scope;
}

/** The request's session header, trimmed; absent or blank → none. */
export function requestSession(request: object | undefined): string | undefined {
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
export function writeServedHeaders(headers: ServedHeaders, served: ServedBy): void {
  if (headers.isHeadersSent()) return;
  if (served.route !== undefined) headers.setHeader(ROUTE_HEADER, toHeaderValue(served.route));
  if (served.model !== undefined) headers.setHeader(MODEL_HEADER, toHeaderValue(served.model));
  if (served.downgraded !== undefined) {
    headers.setHeader(DOWNGRADED_HEADER, toHeaderValue(served.downgraded));
  }
  if (served.cache !== undefined) headers.setHeader(CACHE_HEADER, served.cache);
  if (served.cacheSimilarity !== undefined) {
    headers.setHeader(CACHE_SIMILARITY_HEADER, String(served.cacheSimilarity));
  }
  if (served.decision !== undefined) headers.setHeader(DECISION_HEADER, served.decision);
}

/**
 * What a request's `Cache-Control` asks of the response cache: `no-store` (neither look up nor
 * store), `no-cache` (do not serve from the cache; the answer is still stored), else `default`.
 */
export function requestCacheControl(
  request: object | undefined,
): 'default' | 'no-cache' | 'no-store' {
  const headers = (request as { headers?: Record<string, unknown> } | undefined)?.headers;
  const raw = headers?.['cache-control'];
  const value = (Array.isArray(raw) ? raw.join(',') : raw) as unknown;
  if (typeof value !== 'string' || value.length > 1024) return 'default';
  const directives = value
    .toLowerCase()
    .split(',')
    .map((part) => part.trim());
  if (directives.includes('no-store')) return 'no-store';
  if (directives.includes('no-cache')) return 'no-cache';
  return 'default';
}
