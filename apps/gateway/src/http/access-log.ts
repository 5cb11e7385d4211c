import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { logSafe, totalTokensOf } from 'nest-model-router/core';
import { keyOf } from '../auth/request-key.js';
import { callFactsOf } from './call-facts.interceptor.js';

const MAX_PATH = 256;
/** nginx's "client closed request": the status Nest had not yet replaced (201) said nothing. */
export const CLIENT_CLOSED_REQUEST = 499;

export interface AccessLogEntry {
  time: string;
  type: 'access';
  requestId: string;
  method: string;
  path: string;
  /** The answer's status; 499 (as nginx logs it) when the answer was not completed. */
  status: number;
  /** What the client had been sent before it left (a stream's 200), when it had been. */
  sentStatus?: number;
  /** `aborted` when the client left before the answer was complete. */
  outcome: 'completed' | 'aborted';
  durationMs: number;
  key?: string;
  router?: string;
  route?: string;
  model?: string;
  timeToFirstTokenMs?: number;
  /** `estimated`: the model reported no usage (or part of it), so these were estimated. */
  tokens?: { input: number; output: number; total: number; estimated?: true };
  costUsd?: number;
}

export interface AccessLogOptions {
  /** Where lines go; default stdout. */
  write?: (line: string) => void;
  /** One JSON object per line; default when `LOG_FORMAT=json` or stdout is not a terminal. */
  json?: boolean;
}

/** Whether logs should be JSON lines: asked for, or written to a file or pipe (no colours). */
export function wantsJsonLogs(env: Readonly<Record<string, string | undefined>> = process.env) {
  return env.LOG_FORMAT === 'json' || !process.stdout.isTTY;
}

/**
 * One line per request, written when its connection is done with it (streams included): request
 * id, key name, router, route and model (from the call's record), status, duration, time to the
 * first streamed event, tokens and cost when known. Never a header, body or key.
 */
export function registerAccessLog(fastify: FastifyInstance, options: AccessLogOptions = {}): void {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const json = options.json ?? wantsJsonLogs();
  fastify.addHook('onRequest', (request, reply, done) => {
    const started = performance.now();
    reply.raw.once('close', () => {
      const entry = accessLogEntry(request, reply, started);
      write(json ? JSON.stringify(entry) : textLine(entry));
    });
    done();
  });
}

export function accessLogEntry(
  request: FastifyRequest,
  reply: FastifyReply,
  started: number,
): AccessLogEntry {
  const facts = callFactsOf(request);
  const record = facts?.record;
  const served: { route?: string; model?: string } = record?.servedBy() ?? facts?.served ?? {};
  const usage = record?.response?.tokenUsage ?? facts?.served?.tokenUsage;
  const cost = facts?.costUsd;
  const key = keyOf(request)?.name;
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  const aborted = !reply.raw.writableFinished;
  return {
    time: new Date().toISOString(),
    type: 'access',
    requestId: request.id,
    method: request.method,
    path: (request.url.split('?')[0] ?? '').slice(0, MAX_PATH),
    status: aborted ? CLIENT_CLOSED_REQUEST : reply.raw.statusCode,
    ...(aborted && reply.raw.headersSent ? { sentStatus: reply.raw.statusCode } : {}),
    outcome: aborted ? 'aborted' : 'completed',
    durationMs: round(performance.now() - started),
    ...(key !== undefined ? { key } : {}),
    ...(record?.routerName !== undefined ? { router: record.routerName } : {}),
    ...(served.route !== undefined ? { route: served.route } : {}),
    ...(served.model !== undefined ? { model: served.model } : {}),
    ...(facts?.firstEventAt !== undefined
      ? { timeToFirstTokenMs: round(facts.firstEventAt - started) }
      : {}),
    ...(usage
      ? {
          tokens: {
            input,
            output,
            total: totalTokensOf(usage),
            ...(usage.estimated === true ? { estimated: true as const } : {}),
          },
        }
      : {}),
    ...(typeof cost === 'number' ? { costUsd: cost } : {}),
  };
}

/** For a terminal: `POST /v1/chat/completions 200 12ms key=team-a route=simple …`. */
function textLine(entry: AccessLogEntry): string {
  const fields = [
    `${entry.method} ${entry.path} ${entry.status}${entry.outcome === 'aborted' ? ' (aborted)' : ''}`,
    `${entry.durationMs}ms`,
    entry.key && `key=${entry.key}`,
    entry.router && `router=${entry.router}`,
    entry.route && `route=${entry.route}`,
    entry.model && `model=${entry.model}`,
    entry.timeToFirstTokenMs !== undefined && `ttft=${entry.timeToFirstTokenMs}ms`,
    entry.tokens && `tokens=${entry.tokens.total}${entry.tokens.estimated ? '~' : ''}`,
    entry.costUsd !== undefined && `cost=$${entry.costUsd}`,
    `id=${entry.requestId}`,
  ];
  return logSafe(fields.filter(Boolean).join(' '));
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
