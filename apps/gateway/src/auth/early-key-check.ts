import type { FastifyInstance } from 'fastify';
import { ANTHROPIC_PATHS, fromWireError } from '../anthropic/anthropic-error.js';
import { toWireError } from '../openai/openai-error.js';
import type { HeadRefusal } from '../http/continue-gate.js';
import {
  ADMIN_SHELL_PATHS,
  AdminKeyRequiredException,
  InvalidApiKeyException,
  OPEN_PATHS,
  credentialOf,
  needsAdminKey,
} from './api-key.guard.js';
import type { ApiKeys } from './api-keys.js';
import { keyOf, setKeyOf } from './request-key.js';

/**
 * With `auth`, a request without a valid key is answered 401 in Fastify's `onRequest` phase,
 * before its body is read: a keyless client cannot make the gateway buffer and parse megabytes
 * (a 20 MB JSON body blocked the event loop for over a second before the guard refused it).
 * The key found is kept for the guard, the throttler and the access log. Routes Nest does not
 * serve (404s, CORS preflights) and open paths (`/health`) are left to what answers them.
 */
export function registerEarlyKeyCheck(fastify: FastifyInstance, keys: ApiKeys): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const path = request.routeOptions?.url;
    if (path === undefined || request.method === 'OPTIONS' || keyOf(request)) return done();
    const credential = credentialOf(request.headers);
    const key = credential === undefined ? undefined : keys.authenticate(credential);
    if (key) setKeyOf(request, key);
    if (key || OPEN_PATHS.has(path)) return done();
    if (credential === undefined && ADMIN_SHELL_PATHS.has(path)) return done();
    const wire = toWireError(new InvalidApiKeyException(credential !== undefined, request.url));
    const shaped = ANTHROPIC_PATHS.has(path) ? fromWireError(wire) : wire;
    // the body was never read: close the connection rather than drain what the client still sends
    void reply
      .status(shaped.status)
      .headers(shaped.headers)
      .header('connection', 'close')
      .send(shaped.body);
  });
}

/** ApiKeyGuard's 403 for a client key on an admin path, known before the body is read. */
export const clientKeyOnAdminPath: HeadRefusal = (request) => {
  const path = request.routeOptions?.url;
  const key = keyOf(request);
  if (path === undefined || key === undefined || key.admin || !needsAdminKey(path)) return;
  return new AdminKeyRequiredException(path);
};
