import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Clock } from 'nest-model-router';
import { keyOf } from '../auth/request-key.js';
import type { WindowCount, WindowCounters } from './window-counters.js';

/** The throttlers of a key: `rpm` counts requests, `tpm` the tokens its answers used. */
export const REQUESTS = 'requests';
export const TOKENS = 'tokens';
export const LIMIT_WINDOW_MS = 60_000;

/** A request's worst case, held in its key's tpm window until its real usage is known. */
interface TokenHold {
  key: string;
  tokens: number;
  /** The window it was taken in (`floor(now / LIMIT_WINDOW_MS)`). */
  window: number;
}

/**
 * @nestjs/throttler's storage over the gateway's window counters. A request takes one unit of
 * its key's `requests` window, unless the window is full. For tokens, a request first holds its
 * worst case in its key's `tokens` window (`reserveTokens`, refused once the window has reached
 * `tpm`), and `recordTokensOf` replaces the hold by what the call really used (a chat answer's
 * tokens, a cut stream's estimate, an embedding call's input tokens); a request that ends
 * without a call gives its hold back (`releaseTokensOf`). So under any concurrency a key is
 * served at most `tpm` plus one request's worst case per minute.
 */
export class KeyThrottlerStorage implements ThrottlerStorage {
  private readonly held = new WeakMap<object, TokenHold>();
  /** Output tokens assumed for a request that does not say how many it may produce. */
  reserveOutputTokens = DEFAULT_RESERVE_OUTPUT_TOKENS;

  constructor(
    readonly counters: WindowCounters,
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
    const count = tokens
      ? await this.counters.add(key, 0, ttl)
      : await this.counters.add(key, 1, ttl, limit);
    const isBlocked = tokens ? count.total >= limit : !count.added;
    const seconds = Math.ceil(count.resetMs / 1000);
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
  ): Promise<WindowCount> {
    const window = this.window();
    const count = await this.counters.add(
      throttlerKey(TOKENS, keyName),
      tokens,
      LIMIT_WINDOW_MS,
      // refused when the total is at the limit already: total + tokens > tpm - 1 + tokens
      tpm - 1 + tokens,
    );
    if (count.added) this.held.set(request, { key: keyName, tokens, window });
    return count;
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
    const delta =
      this.window() === hold.window ? tokens - hold.tokens : Math.max(0, tokens - hold.tokens);
    if (delta !== 0) {
      void this.counters
        .add(throttlerKey(TOKENS, hold.key), delta, LIMIT_WINDOW_MS)
        .catch(() => undefined);
    }
  }

  /** The request ended without a call that used tokens: its hold is given back. */
  releaseTokensOf(request: object): void {
    const hold = this.held.get(request);
    if (!hold) return;
    this.held.delete(request);
    if (this.window() !== hold.window) return;
    void this.counters
      .add(throttlerKey(TOKENS, hold.key), -hold.tokens, LIMIT_WINDOW_MS)
      .catch(() => undefined);
  }

  private window(): number {
    return Math.floor(this.clock() / LIMIT_WINDOW_MS);
  }

  /** Adds an answer's tokens to its key's window (no limit: the tokens are already spent). */
  async recordTokens(keyName: string, tokens: number): Promise<void> {
    if (tokens > 0) await this.counters.add(throttlerKey(TOKENS, keyName), tokens, LIMIT_WINDOW_MS);
  }
}

/** Output tokens a request is assumed to ask for when it does not say (its worst case). */
export const DEFAULT_RESERVE_OUTPUT_TOKENS = 4096;

/** The storage key of a throttler's window for an API key (names are [A-Za-z0-9_.-]). */
export function throttlerKey(throttlerName: string, keyName: string): string {
  return `${throttlerName}:${keyName}`;
}
