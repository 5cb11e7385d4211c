import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { inDialectOf } from '../anthropic/anthropic-error.js';
import type { WireError } from '../openai/openai-error.js';

/**
 * Node's and Fastify's options whose own answers are replaced by the gateway's: Node answers an
 * HTTP/1.1 request without `Host` with an empty 400, Fastify a request that arrives while the
 * application closes with a 503 body of its own shape; `registerProtocolRefusals` answers both.
 */
export const PROTOCOL_OPTIONS = {
  http: { requireHostHeader: false },
  return503OnClosing: false,
} as const;

const MISSING_HOST = clientError(
  400,
  'An HTTP/1.1 request must carry a Host header (RFC 9112, section 3.2); send Host: <host>:<port>',
  'missing_host_header',
);

/** Another replica, or this one once it has restarted, will serve it. */
const SHUTTING_DOWN: WireError = {
  status: 503,
  headers: { 'retry-after': '1', connection: 'close' },
  body: {
    error: {
      message: 'The gateway is shutting down and takes no new requests; retry the request.',
      type: 'server_error',
      param: null,
      code: 'server_shutting_down',
    },
  },
};

const NOT_A_PROXY = clientError(
  405,
  'CONNECT is not served: this is an HTTP API, not a proxy',
  'method_not_allowed',
);

/**
 * What Node and Fastify would refuse outside the API's error shape, refused in it (the dialect of
 * the request's path: Anthropic's on `/v1/messages`, else OpenAI's), so that a client reads every
 * refusal as it reads the API's own: a request without `Host`, a request during shutdown (503 +
 * `Retry-After`), an `Expect` other than `100-continue` (417), `CONNECT` (405). Needs the server
 * created with PROTOCOL_OPTIONS.
 */
export function registerProtocolRefusals(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (closing) return refuse(reply, request.url, SHUTTING_DOWN);
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      return refuse(reply, request.url, MISSING_HOST);
    }
    done();
  });
  const server = fastify.server as Server;
  server.on('checkExpectation', (request: IncomingMessage, response) => {
    const wire = inDialectOf(
      request.url,
      clientError(
        417,
        `Expect: ${String(request.headers.expect).slice(0, 64)} is not supported; only Expect: 100-continue is`,
        'expectation_failed',
      ),
    );
    const body = JSON.stringify(wire.body);
    response.writeHead(417, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  });
  // without a listener Node closes the socket without a word
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    const body = JSON.stringify(NOT_A_PROXY.body);
    socket.on('error', () => socket.destroy());
    socket.end(
      `HTTP/1.1 405 ${STATUS_CODES[405]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * `@fastify/cors` answers an OPTIONS request that is not a CORS preflight (no `Origin`, or no
 * `Access-Control-Request-Method`) with a plain-text 400; this says the same in the API's shape.
 * Registered only with `cors`.
 */
export function registerPreflightRefusalShape(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode !== 400 || payload !== 'Invalid Preflight Request') {
      return done(null, payload);
    }
    const wire = inDialectOf(
      request.url,
      clientError(
        400,
        'Not a CORS preflight: an OPTIONS request needs an Origin and an ' +
          'Access-Control-Request-Method header',
        'invalid_preflight_request',
      ),
    );
    void reply.header('content-type', 'application/json; charset=utf-8');
    done(null, JSON.stringify(wire.body));
  });
}

function refuse(reply: FastifyReply, url: string, wire: WireError): void {
  const shaped = inDialectOf(url, wire);
  void reply
    .status(wire.status)
    .headers(wire.headers)
    .header('connection', 'close')
    .send(shaped.body);
}

function clientError(status: number, message: string, code: string): WireError {
  return {
    status,
    headers: {},
    body: { error: { message, type: 'invalid_request_error', param: null, code } },
  };
}
