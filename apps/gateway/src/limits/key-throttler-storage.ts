import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Clock } from 'nest-model-router';
import {
  type CounterStore,
  DEFAULT_RESERVE_OUTPUT_TOKENS,
  windowEnd,
} from 'nest-model-router/core';
import { keyOf } from '../auth/request-key.js';

/** The throttlers of a key: `rpm` counts requests, `tpm` the tokens its answers used. */
export const REQUESTS = 'requests';
export const TOKENS = 'tokens';
export const LIMIT_WINDOW_MS = 60_000;

/** A request's worst case, held in its key's tpm window until its real usage is known. */
interface TokenHold {
  key: string;
  tokens: number;
  /** When it was taken: settling adds to that time's window. */
  at: number;
}

/**
 * @nestjs/throttler's storage over the library's windowed counters: those of the module's route
 * state store, so with Redis a key's limits hold across every replica (one atomic add-unless-over
 * -limit per request), and while Redis is away each replica counts alone. Windows are fixed
 * (`floor(now / windowMs)`), read from the gateway's clock. A request takes one unit of its key's
 * `requests` window, unless the window is full. For tokens, a request first holds its worst case
 * in its key's `tokens` window (`reserveTokens`, refused once the window has reached `tpm`), and
 * `recordTokensOf` replaces the hold by what the call really used (a chat answer's tokens, a cut
 * stream's estimate, an embedding call's input tokens); a request that ends without a call gives
 * its hold back (`releaseTokensOf`). So under any concurrency a key is served at most `tpm` plus
 * one request's worst case per minute.
 */
export class KeyThrottlerStorage implements ThrottlerStorage {
  private readonly held = new WeakMap<object, TokenHold>();
  /** Output tokens assumed for a request that does not say how many it may produce. */
  reserveOutputTokens = DEFAULT_RESERVE_OUTPUT_TOKENS;

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

  /**
   * Holds `tokens` (the request's worst case) in the key's window; refused (`added: false`,
   * nothing held) once the window's total has reached `tpm`, so a request larger than what is
   * left may still take the rest of the minute, alone.
   */
  async reserveTokens(
    request: object,
    keyName: string,
    tokens: number,
    tpm: number,
  ): Promise<{ total: number; added: boolean; resetMs: number }> {
    const now = this.clock();
    const window = { windowMs: LIMIT_WINDOW_MS, now };
    // refused when the total is at the limit already: total + tokens > tpm - 1 + tokens
    const count = await this.counters.addToWindow(throttlerKey(TOKENS, keyName), tokens, {
      ...window,
      limit: tpm - 1 + tokens,
    });
    if (count.ok) this.held.set(request, { key: keyName, tokens, at: now });
    return { total: count.total, added: count.ok, resetMs: windowEnd(window) - now };
  }

  /**
   * A request's real tokens, to its key's window when the key has a `tpm`; they replace the
   * request's hold. Nothing to wait for.
   */
  recordTokensOf(request: object, tokens: number): void {
    const key = keyOf(request);
    if (!key?.client?.tpm) return;
    const hold = this.held.get(request);
    this.held.delete(request);
    if (!hold) {
      void this.recordTokens(key.name, tokens).catch(() => undefined);
      return;
    }
    // a hold of a minute that has ended stays there: it already counted at least the usage
    const delta = this.sameWindow(hold) ? tokens - hold.tokens : Math.max(0, tokens - hold.tokens);
    this.addToHold(hold, delta);
  }

  /** The request ended without a call that used tokens: its hold is given back. */
  releaseTokensOf(request: object): void {
    const hold = this.held.get(request);
    if (!hold) return;
    this.held.delete(request);
    if (this.sameWindow(hold)) this.addToHold(hold, -hold.tokens);
  }

  private addToHold(hold: TokenHold, delta: number): void {
    if (delta === 0) return;
    const window = { windowMs: LIMIT_WINDOW_MS, now: this.clock() };
    void Promise.resolve()
      .then(() => this.counters.addToWindow(throttlerKey(TOKENS, hold.key), delta, window))
      .catch(() => undefined);
  }

  private sameWindow(hold: TokenHold): boolean {
    return Math.floor(this.clock() / LIMIT_WINDOW_MS) === Math.floor(hold.at / LIMIT_WINDOW_MS);
  }

  /** The key's requests and tokens in the current minute (the store's view: shared with Redis). */
  usage(keyName: string): { requests: number; tokens: number } {
    const window = { windowMs: LIMIT_WINDOW_MS, now: this.clock() };
    return {
      requests: this.counters.getWindow(throttlerKey(REQUESTS, keyName), window),
      tokens: this.counters.getWindow(throttlerKey(TOKENS, keyName), window),
    };
  }

  /**
   * The first of a key's windows already used up (tokens before requests, in the throttlers'
   * order), read without counting anything: a request it names would be refused by the guard.
   */
  usedUpWindow(
    keyName: string,
    limits: { rpm?: number | undefined; tpm?: number | undefined },
  ): { throttler: string; limit: number; seconds: number } | undefined {
    const now = this.clock();
    const window = { windowMs: LIMIT_WINDOW_MS, now };
    const seconds = Math.ceil((windowEnd(window) - now) / 1000);
    for (const [throttler, limit] of [
      [TOKENS, limits.tpm],
      [REQUESTS, limits.rpm],
    ] as const) {
      if (limit && this.counters.getWindow(throttlerKey(throttler, keyName), window) >= limit) {
        return { throttler, limit, seconds };
      }
    }
    return undefined;
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
