import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The official SDKs' own retry rules, kept for `maxRetries` > 0 (default 0: retrying is the
 * resilience layer's job): `x-should-retry` wins, else 408, 409, 429 and 5xx are retried.
 */
export function shouldRetry(status: number, headers: Headers): boolean {
  const told = headers.get('x-should-retry');
  if (told === 'true') return true;
  if (told === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** `retry-after-ms`, else `retry-after` (seconds or a date) when under a minute, else backoff. */
export function retryDelayMs(
  headers: Headers | undefined,
  retriesDone: number,
  now = Date.now(),
): number {
  let wait: number | undefined;
  const ms = headers?.get('retry-after-ms');
  if (ms && !Number.isNaN(parseFloat(ms))) wait = parseFloat(ms);
  const after = headers?.get('retry-after');
  if (after && !wait) {
    const seconds = parseFloat(after);
    wait = Number.isNaN(seconds) ? Date.parse(after) - now : seconds * 1000;
  }
  if (wait !== undefined && wait >= 0 && wait < 60_000) return wait;
  const backoff = Math.min(0.5 * 2 ** retriesDone, 8);
  return backoff * (1 - Math.random() * 0.25) * 1000;
}

/** Waits, unless the call is aborted meanwhile (then it rejects at once). */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return sleep(ms, undefined, signal ? { signal } : {});
}
