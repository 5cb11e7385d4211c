import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { type Clock, InvalidConfigurationException } from 'nest-model-router';
import { inDialectOf } from '../anthropic/anthropic-error.js';
import type { WireError } from '../openai/openai-error.js';

/**
 * 4,096: above the concurrency of a team's gateway or a load test (a lower cap would answer a
 * benchmark's clients 503), and each call served holds two descriptors (its client's connection
 * and the provider's), and as many connections again may wait for their 503: Node's open-file
 * limit (raised at start to the hard limit) holds the three times the cap this takes.
 */
export const DEFAULT_MAX_CONNECTIONS = 4096;

/** How long a connection beyond the cap may take to send its request before it is dropped. */
const OVER_CAP_GRACE_MS = 1000;

/** How often at most the gateway's log says how many connections it refused. */
const REFUSALS_REPORT_MS = 60_000;

/** The cap of a configuration, checked: the YAML's by its schema, a configuration object's here. */
export function maxConnectionsOf(maxConnections = DEFAULT_MAX_CONNECTIONS): number {
  if (!Number.isSafeInteger(maxConnections) || maxConnections < 1) {
    throw new InvalidConfigurationException(
      `maxConnections (server.maxConnections) must be a whole number >= 1; got ${String(maxConnections)}.`,
    );
  }
  return maxConnections;
}

/**
 * Bounds the connections open at once (YAML `server.maxConnections`), so a pile of idle or
 * trickling clients (slowloris) cannot exhaust the process's descriptors before the headers
 * timeout cuts them. A connection beyond the cap is accepted, its request answered 503 with
 * `Retry-After` in the dialect of its path (a refusal a client can read, which Node's own
 * `maxConnections` does not give: it closes the socket unanswered) and the connection closed,
 * unless served connections have closed meanwhile (then it is served); one that sends no request
 * within a second is dropped. Node's `maxConnections`, at twice the
 * cap, stays as the hard ceiling: answering costs a connection held until its request arrives,
 * so beyond the ceiling nothing is read or written and the cost of a flood stays bounded. The
 * log says how many connections were refused (the first refusal at once, then at most one line
 * a minute), since a dropped connection leaves no access log line.
 */
export function registerConnectionCap(
  fastify: FastifyInstance,
  maxConnections: number,
  clock: Clock = Date.now,
): void {
  const server = fastify.server as Server;
  server.maxConnections = maxConnections * 2;
  const refusals = refusalReport(maxConnections, clock);
  // the connections served, and those over the cap awaiting their request (with their timers)
  let served = 0;
  const waiting = new Map<Socket, NodeJS.Timeout>();
  const serve = (socket: Socket) => {
    served += 1;
    socket.once('close', () => {
      served -= 1;
    });
  };
  server.on('connection', (socket: Socket) => {
    if (served < maxConnections) return serve(socket);
    const timer = setTimeout(() => {
      waiting.delete(socket);
      refusals.count('dropped');
      socket.destroy();
    }, OVER_CAP_GRACE_MS).unref();
    waiting.set(socket, timer);
    socket.once('close', () => {
      clearTimeout(waiting.get(socket));
      waiting.delete(socket);
    });
  });
  server.on('drop', () => refusals.count('dropped'));
  const refusal: WireError = {
    status: 503,
    headers: { 'retry-after': '1', connection: 'close' },
    body: {
      error: {
        message:
          `The gateway has ${maxConnections} connections open, its limit ` +
          '(server.maxConnections); retry shortly.',
        type: 'server_error',
        param: null,
        code: 'too_many_connections',
      },
    },
  };
  fastify.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket;
    const timer = waiting.get(socket);
    if (timer === undefined) return done();
    // served connections closed since it connected: it is served rather than refused
    if (served < maxConnections) {
      clearTimeout(timer);
      waiting.delete(socket);
      serve(socket);
      return done();
    }
    refusals.count('answered');
    const shaped = inDialectOf(request.url, refusal);
    void reply.status(503).headers(refusal.headers).send(shaped.body);
  });
}

/** Counts refused connections; logs the first at once, then the counts at most once a minute. */
function refusalReport(
  maxConnections: number,
  clock: Clock,
): { count(outcome: 'answered' | 'dropped'): void } {
  const logger = new Logger('Gateway');
  const counts = { answered: 0, dropped: 0 };
  let reportedAt = Number.NEGATIVE_INFINITY;
  return {
    count(outcome) {
      counts[outcome] += 1;
      const now = clock();
      if (now - reportedAt < REFUSALS_REPORT_MS) return;
      reportedAt = now;
      logger.warn(
        `Connections over server.maxConnections (${maxConnections}) since the last report: ` +
          `${counts.answered} answered 503, ${counts.dropped} closed unanswered (no request ` +
          `within a second, or over ${maxConnections * 2} open); raise the limit or add ` +
          'replicas if these clients are legitimate.',
      );
      counts.answered = 0;
      counts.dropped = 0;
    },
  };
}
