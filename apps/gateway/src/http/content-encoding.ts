import type { FastifyInstance } from 'fastify';
import { inDialectOf } from '../anthropic/anthropic-error.js';

/**
 * A body sent with a `Content-Encoding` (gzip, br…) is answered 415 before it is read: the
 * gateway decompresses nothing, and parsed as it came, a compressed body was refused as malformed
 * JSON (a 400 that sent the client looking at its JSON), or a body that was not compressed at all
 * was taken. RFC 9110 (section 8.4.1) names 415 for a coding the server does not support.
 * `identity` is no coding and passes.
 */
export function registerContentEncodingRefusal(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const { headers } = request.raw;
    const coding = headers['content-encoding'];
    if (coding === undefined || coding.trim().toLowerCase() === 'identity') return done();
    const hasBody =
      headers['transfer-encoding'] !== undefined ||
      (headers['content-length'] !== undefined && headers['content-length'] !== '0');
    if (!hasBody) return done();
    const wire = inDialectOf(request.url, {
      status: 415,
      headers: {},
      body: {
        error: {
          message:
            `Content-Encoding: ${coding.slice(0, 32)} is not supported: send the body ` +
            'uncompressed (application/json, without Content-Encoding)',
          type: 'invalid_request_error',
          param: null,
          code: 'unsupported_content_encoding',
        },
      },
    });
    // the body was never read: close the connection rather than drain it
    void reply.status(415).header('connection', 'close').send(wire.body);
  });
}
