import type { IncomingMessage, Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inDialectOf } from '../anthropic/anthropic-error.js';
import { toWireError } from '../openai/openai-error.js';

/**
 * Why a request would be refused, decided from its line and headers alone (the key found by the
 * early key check included), as the error its guard throws; or undefined. May set headers on
 * `reply` that the refusal carries (a rate limit's `x-ratelimit-*`).
 */
export type HeadRefusal = (request: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * Node says "100 Continue" to every `Expect: 100-continue` at once: the gateway says it only when
 * the body is about to be read (Fastify's preParsing) and nothing refuses the request from its
 * head, so a client is never asked to upload a body only to be refused. Refused before then:
 * what `onRequest` answers (unserved path 404, missing or bad key 401); a body over the limit
 * (Fastify's 413, from its Content-Length) or of a media type no parser takes (Fastify's 415),
 * both answered by Fastify without reading the body; and each of `refusals` (a client key on an
 * admin path 403, a used-up rpm or tpm 429), answered here as the guards would answer it. Node
 * closes a connection whose 100 was never sent, so the unsent body is never read.
 */
export function registerContinueGate(
  fastify: FastifyInstance,
  bodyLimit: number,
  refusals: readonly HeadRefusal[],
): void {
  const server = fastify.server as Server;
  const awaitingContinue = new WeakSet<IncomingMessage>();
  server.on('checkContinue', (request: IncomingMessage, response) => {
    if (!(Number(request.headers['content-length']) > bodyLimit)) awaitingContinue.add(request);
    server.emit('request', request, response);
  });
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    if (!awaitingContinue.delete(request.raw) || reply.raw.headersSent) {
      return done(null, payload);
    }
    // Fastify answers 415 after this hook, without reading the body
    if (!hasParser(fastify, request)) return done(null, payload);
    for (const refusal of refusals) {
      const error = refusal(request, reply);
      if (error === undefined) continue;
      const wire = inDialectOf(request.url, toWireError(error));
      void reply
        .status(wire.status)
        .headers(wire.headers)
        .header('connection', 'close')
        .send(wire.body);
      return;
    }
    reply.raw.writeContinue();
    done(null, payload);
  });
}

/** Whether one of Fastify's content-type parsers takes the request's body (the gateway: JSON). */
function hasParser(fastify: FastifyInstance, request: FastifyRequest): boolean {
  const mediaType = request.mediaType;
  return mediaType !== undefined && fastify.hasContentTypeParser(mediaType);
}
