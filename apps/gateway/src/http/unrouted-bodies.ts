import type { FastifyInstance } from 'fastify';
import { inDialectOf } from '../anthropic/anthropic-error.js';
import { quotingShownPath } from './fastify-errors.js';
import { unservedPathHint } from './unserved-path-hint.js';

/**
 * A request for a path and method the gateway does not serve is answered 404 before its body is
 * read, and its connection closed: Fastify's not-found route parsed a JSON body like any other,
 * so anyone, with `auth` or without a key, could make the gateway buffer and parse megabytes
 * (6 MB took over a second of the event loop) only to be told the path does not exist.
 */
export function registerUnroutedBodyRefusal(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const { headers } = request.raw;
    const hasBody =
      headers['transfer-encoding'] !== undefined ||
      (headers['content-length'] !== undefined && headers['content-length'] !== '0');
    // with a Content-Type, Fastify's not-found route parsed even an empty body: a 400 saying a
    // JSON body cannot be empty, for a DELETE /health
    const typed = headers['content-type'] !== undefined;
    // is404 reads the route's URL; routeOptions would build an object of twelve fields for it
    if (!request.is404 || !(hasBody || typed)) return done();
    const message =
      quotingShownPath(`Cannot ${request.method} ${request.url}`, request.url) +
      unservedPathHint(fastify, request.method, request.url);
    const wire = inDialectOf(request.url, {
      status: 404,
      headers: {},
      body: { error: { message, type: 'invalid_request_error', param: null, code: null } },
    });
    if (hasBody) void reply.header('connection', 'close');
    void reply.status(404).send(wire.body);
  });
}
