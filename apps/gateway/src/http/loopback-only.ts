import { isIP } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { InvalidConfigurationException } from 'nest-model-router';
import { inDialectOf } from '../anthropic/anthropic-error.js';

/** Whether an address to listen on (or that a server listens on) is loopback only. */
export function isLoopbackAddress(host: string | undefined): boolean {
  if (host === undefined) return false;
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  const version = isIP(bare);
  if (version === 4) return bare.startsWith('127.');
  if (version === 6) return bare === '::1' || bare.startsWith('::ffff:127.');
  return false;
}

/** The host of a `Host` header (`name`, `name:port`, `[v6]:port`). */
export function hostOf(header: string): string {
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1);
  const colon = header.lastIndexOf(':');
  return colon > 0 && header.indexOf(':') === colon ? header.slice(0, colon) : header;
}

/**
 * Without `auth`, the gateway's port is the operator's provider keys: refuse to listen where
 * others can reach it. (The check runs where the application listens: `createGatewayApp`
 * wraps `listen`.)
 */
export function assertListenAllowed(host: string | undefined, hasAuth: boolean): void {
  if (hasAuth || isLoopbackAddress(host ?? 'localhost')) return;
  throw new InvalidConfigurationException(
    `The gateway has no auth section, so anyone who can reach ${host} could spend the provider ` +
      'keys; it listens beyond loopback only with keys. Add `auth: { keys: [{ name: team-a, key: ' +
      '\'${TEAM_A_KEY}\' }] }` to the configuration (docs/gateway.md: "Running the gateway for a team"), ' +
      'listen on 127.0.0.1, or write `auth: none` to serve without keys on purpose.',
  );
}

const HOST_NOT_ALLOWED = {
  status: 403,
  headers: {},
  body: {
    error: {
      message:
        'This gateway listens on loopback and answers only requests for localhost, 127.0.0.1 ' +
        'or [::1] (a Host header naming another host is how DNS rebinding reaches local ' +
        'servers). To serve other names, configure auth and listen on another address.',
      type: 'invalid_request_error',
      param: null,
      code: 'host_not_allowed',
    },
  },
};

const NO_HOST = {
  ...HOST_NOT_ALLOWED,
  body: {
    error: {
      ...HOST_NOT_ALLOWED.body.error,
      message:
        'This gateway listens on loopback and answers only requests whose Host header names ' +
        'localhost, 127.0.0.1 or [::1]; this request has no Host header.',
    },
  },
};

/**
 * Whether a request target names no other host: an origin-form target (`/v1/models`) names
 * none; an absolute-form one (`http://host/v1/models`) names the host the request is for, which
 * HTTP/1.1 servers must take over `Host` (RFC 9112, section 3.2.2).
 */
function loopbackTarget(target: string | undefined): boolean {
  if (target === undefined || target.startsWith('/') || target === '*') return true;
  try {
    return isLoopbackAddress(new URL(target).hostname);
  } catch {
    return false;
  }
}

/**
 * While the server listens on loopback only, a request must name a loopback host: a web page
 * that points its own DNS name at 127.0.0.1 (DNS rebinding) sends `Host: its-name`, and would
 * otherwise reach a local gateway from the user's browser. The host of an absolute-form target
 * counts too. Answered 403 in the dialect of the path.
 */
export function registerLoopbackHostCheck(fastify: FastifyInstance): void {
  // known once per listen: reading the server's address is a system call, ~5 µs per request
  const server = fastify.server as Server;
  let onLoopback = false;
  server.on('listening', () => {
    const address = server.address() as AddressInfo | string | null;
    onLoopback =
      typeof address === 'object' && address !== null && isLoopbackAddress(address.address);
  });
  server.on('close', () => {
    onLoopback = false;
  });
  // a client sends the same Host on every request: the last one allowed passes at one compare
  let allowed: string | undefined;
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!onLoopback) return done();
    const host = request.headers.host;
    if (host === allowed && host !== undefined && loopbackTarget(request.raw.url)) return done();
    if (
      typeof host === 'string' &&
      isLoopbackAddress(hostOf(host)) &&
      loopbackTarget(request.raw.url)
    ) {
      allowed = host;
      return done();
    }
    // an HTTP/1.0 request may have none (HTTP/1.1 without one is refused before, 400)
    const refusal = host === undefined ? NO_HOST : HOST_NOT_ALLOWED;
    void reply.status(403).send(inDialectOf(request.url, refusal).body);
  });
}
