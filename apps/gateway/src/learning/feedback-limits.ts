import { HttpException, HttpStatus } from '@nestjs/common';

export interface FeedbackLimitsOptions {
  /** Feedback requests one key may make per minute. Default 60. */
  perKey?: number;
  /** Feedback requests the gateway takes per minute from everyone. Default 600. */
  total?: number;
}

const WINDOW_MS = 60_000;

/**
 * Bounds feedback per key and in total, in fixed one-minute windows: a flood of feedback costs
 * the flooder 429s, not the router its examples. Keys are configured names (or one `anonymous`
 * without auth), so the per-key map stays as small as the key list.
 */
export class FeedbackLimits {
  private readonly perKey: number;
  private readonly total: number;
  private windowStart = Number.NEGATIVE_INFINITY;
  private totalCount = 0;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly clock: () => number,
    options: FeedbackLimitsOptions = {},
  ) {
    this.perKey = options.perKey ?? 60;
    this.total = options.total ?? 600;
  }

  /** Counts one request of `key`, or throws a 429 with Retry-After. */
  take(key: string): void {
    const refusal = this.refusalOf(key);
    if (refusal) throw refusal;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.totalCount++;
  }

  /**
   * The 429 a request of `key` would get now, or undefined; nothing is counted (the gateway asks
   * before it says `100 Continue`).
   */
  refusalOf(key: string): HttpException | undefined {
    const now = this.clock();
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.totalCount = 0;
      this.counts.clear();
    }
    const used = this.counts.get(key) ?? 0;
    if (used < this.perKey && this.totalCount < this.total) return undefined;
    const seconds = Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - now) / 1000));
    return new HttpException(
      {
        message:
          used >= this.perKey
            ? `Too much feedback from this key: at most ${this.perKey} per minute. Try again in ${seconds}s.`
            : `The gateway takes at most ${this.total} feedback requests per minute. Try again in ${seconds}s.`,
        type: 'requests',
        code: 'rate_limit_exceeded',
        headers: { 'retry-after': String(seconds) },
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

/** The key a request's feedback counts under (without `auth`, everyone's). */
export function feedbackKeyOf(key: { name: string } | undefined): string {
  return key?.name ?? 'anonymous';
}
