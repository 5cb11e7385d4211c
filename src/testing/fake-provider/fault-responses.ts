import type { ServerResponse } from 'node:http';
import type { PlannedAnswer } from './answer-planner.js';
import {
  anthropicBody,
  anthropicContentFilterError,
  anthropicContextLengthError,
  anthropicStatusError,
  openAiContentFilterError,
  openAiContextLengthError,
  openAiStatusError,
  type DialectError,
} from './error-bodies.js';
import type { Fault, RetryAfterHint } from './faults.js';
import { isGone, sendJson } from './http-io.js';
import type { TimerRegistry } from './timer-registry.js';
import { tokenize } from './tokens.js';

// How the fake provider answers under a fault, in either wire dialect.

export type Json = Record<string, unknown>;
export type Dialect = 'openai' | 'anthropic';

/** Faults that replace the answer entirely; true when the request has been dealt with. */
export async function applyRequestFault(
  res: ServerResponse,
  dialect: Dialect,
  fault: Fault | undefined,
  model: string,
  key: string | undefined,
  clock: () => number,
): Promise<boolean> {
  switch (fault?.type) {
    case 'status':
      sendDialectError(
        res,
        statusError(dialect, fault.status, model, key),
        retryAfterHeaders(fault.retryAfter, clock),
      );
      return true;
    case 'reset':
      res.socket?.resetAndDestroy();
      return true;
    case 'hang':
      return true;
    case 'context-length':
      sendDialectError(
        res,
        dialect === 'anthropic' ? anthropicContextLengthError() : openAiContextLengthError(),
      );
      return true;
    case 'content-filter':
      sendDialectError(
        res,
        dialect === 'anthropic' ? anthropicContentFilterError() : openAiContentFilterError(),
      );
      return true;
    default:
      return false;
  }
}

/** A non-streamed answer under a fault: late, cut half-way, stalled half-way, or a 500. */
export async function sendJsonWithFault(
  res: ServerResponse,
  dialect: Dialect,
  json: Json,
  fault: Fault | undefined,
  timers: TimerRegistry,
): Promise<void> {
  switch (fault?.type) {
    case 'slow-first-token':
      if (!(await timers.sleep(fault.ms)) || isGone(res)) return;
      return sendJson(res, 200, json);
    case 'cut-after':
    case 'stall-after': {
      const payload = JSON.stringify(json);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      });
      res.write(payload.slice(0, Math.floor(payload.length / 2)), () => {
        if (fault.type === 'cut-after') res.socket?.destroy();
      });
      return;
    }
    case 'error-after':
      return sendDialectError(res, statusError(dialect, 500, String(json.model ?? ''), undefined));
    default:
      return sendJson(res, 200, json);
  }
}

export function sendError(
  res: ServerResponse,
  dialect: Dialect,
  status: number,
  message: string,
): void {
  const body =
    dialect === 'anthropic'
      ? anthropicBody(status === 404 ? 'not_found_error' : 'invalid_request_error', message)
      : { error: { message, type: 'invalid_request_error', param: null, code: null } };
  sendJson(res, status, body);
}

export function sendDialectError(
  res: ServerResponse,
  error: DialectError,
  headers: Record<string, string> = {},
): void {
  sendJson(res, error.status, error.body, headers);
}

export function statusError(
  dialect: Dialect,
  status: number,
  model: string,
  key: string | undefined,
): DialectError {
  const ctx = { model, ...(key === undefined ? {} : { presentedKey: key }) };
  return dialect === 'anthropic'
    ? anthropicStatusError(status, ctx)
    : openAiStatusError(status, ctx);
}

function retryAfterHeaders(
  hint: RetryAfterHint | undefined,
  clock: () => number,
): Record<string, string> {
  if (!hint) return {};
  if (hint.unit === 'ms') return { 'retry-after-ms': String(hint.value) };
  if (hint.unit === 'date')
    return { 'retry-after': new Date(clock() + hint.value * 1000).toUTCString() };
  return { 'retry-after': String(hint.value) };
}

/** A content-filtered answer: the first two tokens, then finish reason `content_filter`. */
export function filtered(answer: PlannedAnswer): PlannedAnswer {
  return {
    text: tokenize(answer.text).slice(0, 2).join(''),
    toolCalls: [],
    finishReason: 'content_filter',
  };
}
