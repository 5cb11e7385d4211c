import type { ThrottlerStorage } from '@nestjs/throttler';
import { keyOf } from '../auth/request-key.js';
import type { WindowCounters } from './window-counters.js';

/** The throttlers of a key: `rpm` counts requests, `tpm` the tokens its answers used. */
export const REQUESTS = 'requests';
export const TOKENS = 'tokens';
export const LIMIT_WINDOW_MS = 60_000;

/**
 * @nestjs/throttler's storage over the gateway's window counters. A request takes one unit of
 * its key's `requests` window, unless the window is full. Tokens are known only once an answer
 * is complete, so the `tokens` throttler only reads: a request is let through while the key
 * has used fewer than `tpm` tokens in the window, and `recordTokens` adds the answer's usage
 * (a chat answer's tokens, an embedding call's input tokens).
 */
export class KeyThrottlerStorage implements ThrottlerStorage {
  constructor(readonly counters: WindowCounters) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): ReturnType<ThrottlerStorage['increment']> {
    const tokens = throttlerName === TOKENS;
    const count = tokens
      ? await this.counters.add(key, 0, ttl)
      : await this.counters.add(key, 1, ttl, limit);
    const isBlocked = tokens ? count.total >= limit : !count.added;
    const seconds = Math.ceil(count.resetMs / 1000);
    return { totalHits: count.total, timeToExpire: seconds, isBlocked, timeToBlockExpire: seconds };
  }

  /** A request's tokens, to its key's window when the key has a `tpm`; nothing to wait for. */
  recordTokensOf(request: object, tokens: number): void {
    const key = keyOf(request);
    if (key?.client?.tpm) void this.recordTokens(key.name, tokens);
  }

  /** Adds an answer's tokens to its key's window (no limit: the tokens are already spent). */
  async recordTokens(keyName: string, tokens: number): Promise<void> {
    if (tokens > 0) await this.counters.add(throttlerKey(TOKENS, keyName), tokens, LIMIT_WINDOW_MS);
  }
}

/** The storage key of a throttler's window for an API key (names are [A-Za-z0-9_.-]). */
export function throttlerKey(throttlerName: string, keyName: string): string {
  return `${throttlerName}:${keyName}`;
}
