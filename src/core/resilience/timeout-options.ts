import { InvalidConfigurationException } from '../errors/exceptions.js';
import { MAX_TIMER_MS } from './retry-policy.js';

/**
 * Bounds of one call on one model, in ms. `undefined` takes the default; `null` disables the
 * bound (YAML `~`).
 */
export interface TimeoutOptions {
  /** Each chat() attempt. Default 60 000. */
  attemptMs?: number | null;
  /**
   * A stream's wait for its first event, per attempt. Default 20 000, or `attemptMs` when that is
   * shorter: a stream is for an answer that starts at once. Models that think before their
   * first token (reasoning models) raise it per model, e.g. `{ firstTokenMs: 120_000 }`.
   */
  firstTokenMs?: number | null;
  /** A stream's wait for each following event (a stall). Default 30 000. */
  idleMs?: number | null;
  /**
   * The whole call across retries, backoff waits included, and for a stream until its last
   * event. Default: none (retries are bounded by attempts × timeouts anyway).
   */
  deadlineMs?: number | null;
}

export interface ResolvedTimeouts {
  attemptMs?: number;
  firstTokenMs?: number;
  idleMs?: number;
  deadlineMs?: number;
}

export const DEFAULT_ATTEMPT_TIMEOUT_MS = 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
export const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = 20_000;

export function resolveTimeouts(options: TimeoutOptions = {}): ResolvedTimeouts {
  const attemptMs = bound('attemptMs', options.attemptMs, DEFAULT_ATTEMPT_TIMEOUT_MS);
  return {
    attemptMs,
    firstTokenMs: bound(
      'firstTokenMs',
      options.firstTokenMs,
      Math.min(DEFAULT_FIRST_TOKEN_TIMEOUT_MS, attemptMs ?? Number.POSITIVE_INFINITY),
    ),
    idleMs: bound('idleMs', options.idleMs, DEFAULT_IDLE_TIMEOUT_MS),
    deadlineMs: bound('deadlineMs', options.deadlineMs, undefined),
  };
}

function bound(
  field: keyof TimeoutOptions,
  value: number | null | undefined,
  fallback: number | undefined,
): number | undefined {
  if (value === null) return undefined;
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMER_MS) {
    throw new InvalidConfigurationException(
      `Timeout option 'timeouts.${field}' must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}, or null for no timeout (got ${String(value)})`,
    );
  }
  return value;
}
