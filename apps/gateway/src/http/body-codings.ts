import type { FastifyInstance } from 'fastify';
import { inDialectOf } from '../anthropic/anthropic-error.js';

/** Transfer codings Node decodes (`identity` is no coding). */
const DECODED_TRANSFER_CODINGS = new Set(['chunked', 'identity']);

/**
 * A body in a coding the gateway does not decode is refused with 415 before it is read: a
 * `Content-Encoding` other than `identity` (gzip, br…; RFC 9110, section 8.4.1), a
 * `Transfer-Encoding` naming another coding than `chunked` (`gzip, chunked`; RFC 9112, section
 * 6.1 suggests 501, but a 5xx would have the SDKs retry what only the client can change). Parsed
 * as they came, a compressed body was refused as malformed JSON (a 400 that sent the client
 * looking at its JSON), and a body that was not compressed at all was taken.
 */
export function registerBodyCodingRefusal(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const { headers } = request.raw;
    const transfer = headers['transfer-encoding'];
    const coding = headers['content-encoding'];
    if (transfer === undefined && coding === undefined) return done();
    const unknownTransfer = transfer
      ?.split(',')
      .map((name) => name.trim().toLowerCase())
      .find((name) => !DECODED_TRANSFER_CODINGS.has(name));
    const refused =
      unknownTransfer !== undefined
        ? { header: 'Transfer-Encoding', name: unknownTransfer }
        : coding !== undefined && coding.trim().toLowerCase() !== 'identity' && hasBody(headers)
          ? { header: 'Content-Encoding', name: coding }
          : undefined;
    if (refused === undefined) return done();
    const wire = inDialectOf(request.url, {
      status: 415,
      headers: {},
      body: {
        error: {
          message:
            `${refused.header}: ${refused.name.slice(0, 32)} is not supported: send the body ` +
            'uncompressed (application/json, without Content-Encoding)',
          type: 'invalid_request_error',
          param: null,
          code: `unsupported_${refused.header.toLowerCase().replace('-', '_')}`,
        },
      },
    });
    // the body was never read: close the connection rather than drain it
    void reply.status(415).header('connection', 'close').send(wire.body);
  });
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return (
    headers['transfer-encoding'] !== undefined ||
    (headers['content-length'] !== undefined && headers['content-length'] !== '0')
  );
}
