import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Ids from clients or proxies are kept when they are short and plain (no log injection). */
const CLIENT_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Fastify's `genReqId`: the request's `x-request-id` when it is a plain token of at most 128
 * characters (a proxy's or client's id, so one request can be followed across systems), else a
 * new UUID. An id that does not fit is replaced, not refused: it is not the request's fault. So
 * is an id that `isSecret` finds to be a key (a client that sent its key in the wrong header):
 * the id is echoed in every answer's header and written in the access log.
 */
export function requestIdOf(request: IncomingMessage, isSecret?: (id: string) => boolean): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && CLIENT_ID.test(sent) && isSecret?.(sent) !== true
    ? sent
    : randomUUID();
}

/** Every answer names its request, so a client can quote it when something went wrong. */
export function registerRequestIdHeader(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
