import {
  type CanActivate,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Optional,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { type ApiKeys } from './api-keys.js';
import { keyOf, setKeyOf } from './request-key.js';

/** The gateway's keys; absent when the configuration has no `auth`. */
export const GATEWAY_API_KEYS = 'nest-model-router:gateway:api-keys';

/** Paths only an admin key may read once `auth` is configured. */
export const ADMIN_PATHS: ReadonlySet<string> = new Set(['/metrics', '/router/status']);
/**
 * The status page: a shell with no data that asks for an admin key and sends it to
 * `/router/status`. Served without a key; a key that is sent must be an admin key.
 */
export const ADMIN_SHELL_PATHS: ReadonlySet<string> = new Set(['/status']);
/** Paths anyone may read (load balancers); what they show depends on the key (`/health`). */
export const OPEN_PATHS: ReadonlySet<string> = new Set(['/health']);

/**
 * Every route of the gateway, once `auth` is configured: a client or admin key in
 * `Authorization: Bearer <key>` or `x-api-key: <key>`, else 401 `invalid_api_key` as OpenAI
 * answers it (never echoing what was sent); `/metrics` needs an admin key (403 for a client
 * key). Scopes (which routers and models a key may use) are checked where the request's model
 * is resolved. Without `auth` it lets everything through, as the gateway always did.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(@Optional() @Inject(GATEWAY_API_KEYS) private readonly keys?: ApiKeys) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.keys || context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const path = request.routeOptions?.url ?? request.url.split('?')[0] ?? '';
    const credential = credentialOf(request.headers);
    // found already before the body was read (registerEarlyKeyCheck)
    const key =
      keyOf(request) ?? (credential === undefined ? undefined : this.keys.authenticate(credential));
    if (key) setKeyOf(request, key);
    if (OPEN_PATHS.has(path)) return true;
    if (ADMIN_SHELL_PATHS.has(path) && credential === undefined) return true;
    if (!key) throw new InvalidApiKeyException(credential !== undefined, request.url);
    if (needsAdminKey(path) && !key.admin) throw new AdminKeyRequiredException(path);
    return true;
  }
}

/** Whether only an admin key may use the route `path` (once `auth` is configured). */
export function needsAdminKey(path: string): boolean {
  return ADMIN_PATHS.has(path) || ADMIN_SHELL_PATHS.has(path);
}

/** 403 for a client key on an admin path. */
export class AdminKeyRequiredException extends HttpException {
  constructor(path: string) {
    super(
      {
        message: `${path} needs an admin key (auth.adminKeys); this key is a client key.`,
        type: 'permission_error',
        code: 'admin_key_required',
      },
      HttpStatus.FORBIDDEN,
    );
  }
}

/** Query parameters where clients put a key by mistake (`?key=`, as Gemini takes it, `?api_key=`). */
const KEY_IN_QUERY = /[?&](?:api[_-]?key|key|access[_-]?token|token)=/i;

/**
 * 401 in OpenAI's shape; the message says how to send a key, never what was sent. A key in the
 * URL's query (`url`) is not read: URLs end up in proxies' logs and browsers' histories.
 */
export class InvalidApiKeyException extends HttpException {
  constructor(sent: boolean, url = '') {
    super(
      {
        message: sent
          ? 'Incorrect API key provided. Use a key of this gateway (ask its operator), sent as ' +
            '`Authorization: Bearer <key>` or `x-api-key: <key>`.'
          : KEY_IN_QUERY.test(url)
            ? 'A key in the URL is not read (URLs end up in logs): send it as ' +
              '`Authorization: Bearer <key>` or `x-api-key: <key>`.'
            : "You didn't provide an API key. Send one as `Authorization: Bearer <key>` or " +
              '`x-api-key: <key>`; the gateway operator issues keys (auth.keys).',
        code: 'invalid_api_key',
        headers: { 'www-authenticate': 'Bearer' },
      },
      HttpStatus.UNAUTHORIZED,
    );
  }
}

/**
 * The key a request presents: `Authorization: Bearer <key>` (as OpenAI's SDKs send it), else
 * `x-api-key` (as Anthropic's do). Another scheme, or a header sent twice, presents something
 * that cannot match: a wrong key, not a missing one.
 */
export function credentialOf(headers: FastifyRequest['headers']): string | undefined {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const bearer = /^Bearer +(\S+) *$/i.exec(String(authorization));
    return bearer ? bearer[1] : '';
  }
  const apiKey = headers['x-api-key'];
  if (apiKey === undefined) return undefined;
  return typeof apiKey === 'string' ? apiKey.trim() : '';
}
