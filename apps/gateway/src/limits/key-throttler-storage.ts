import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Clock } from 'nest-model-router';
import { type CounterStore, windowEnd } from 'nest-model-router/core';
import { keyOf } from '../auth/request-key.js';

/** The throttlers of a key: `rpm` counts requests, `tpm` the tokens its answers used. */
export const REQUESTS = 'requests';
export const TOKENS = 'tokens';
export const LIMIT_WINDOW_MS = 60_000;

/**
 * @nestjs/throttler's storage over the library's windowed counters: those of the module's route
 * state store, so with Redis a key's limits hold across every replica (one atomic add-unless-over
 * -limit per request), and while Redis is away each replica counts alone. Windows are fixed
 * (`floor(now / windowMs)`), read from the gateway's clock. A request takes one unit of
 * its key's `requests` window, unless the window is full. Tokens are known only once an answer
 * is complete, so the `tokens` throttler only reads: a request is let through while the key
 * has used fewer than `tpm` tokens in the window, and `recordTokens` adds the answer's usage
 * (a chat answer's tokens, an embedding call's input tokens).
 */
export class KeyThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly counters: CounterStore,
    private readonly clock: Clock = Date.now,
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): ReturnType<ThrottlerStorage['increment']> {
    const tokens = throttlerName === TOKENS;
    const now = this.clock();
    // the tokens window is only read: adding 0 asks the shared total, not this replica's view
    const count = tokens
      ? await this.counters.addToWindow(key, 0, { windowMs: ttl, now })
      : await this.counters.addToWindow(key, 1, { windowMs: ttl, now, limit });
    const isBlocked = tokens ? count.total >= limit : !count.ok;
    const seconds = Math.ceil((windowEnd({ windowMs: ttl, now }) - now) / 1000);
    return { totalHits: count.total, timeToExpire: seconds, isBlocked, timeToBlockExpire: seconds };
  }

  /** A request's tokens, to its key's window when the key has a `tpm`; nothing to wait for. */
  recordTokensOf(request: object, tokens: number): void {
    const key = keyOf(request);
    if (key?.client?.tpm) void this.recordTokens(key.name, tokens);
  }

  /** Adds an answer's tokens to its key's window (no limit: the tokens are already spent). */
  async recordTokens(keyName: string, tokens: number): Promise<void> {
    if (tokens <= 0) return;
    const window = { windowMs: LIMIT_WINDOW_MS, now: this.clock() };
    await this.counters.addToWindow(throttlerKey(TOKENS, keyName), tokens, window);
  }
}

/** The storage key of a throttler's window for an API key (names are [A-Za-z0-9_.-]). */
export function throttlerKey(throttlerName: string, keyName: string): string {
  return `${throttlerName}:${keyName}`;
}
