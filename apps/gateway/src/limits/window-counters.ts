import type { Clock } from 'nest-model-router';

export interface WindowCount {
  /** The window's total after this call. */
  total: number;
  /** False when adding would have passed the limit (nothing was added). */
  added: boolean;
  /** Milliseconds until the window ends and its count starts again from 0. */
  resetMs: number;
}

/**
 * Counters over fixed windows (`floor(now / windowMs)`), read from the gateway's clock so tests
 * move time by hand and replicas sharing Redis agree on the window. Per-key request and token
 * limits are kept here; OpenAI's own limits are windowed the same way from the client's view.
 */
export interface WindowCounters {
  /** Adds `amount` unless the total would pass `limit` (no limit: always). `amount` 0 reads. */
  add(key: string, amount: number, windowMs: number, limit?: number): Promise<WindowCount>;
  close?(): Promise<void>;
}

/** Above this many live counters, ended windows are swept. */
const SWEEP_AT = 10_000;

/** One process's counters: what a single gateway (or one cut off from Redis) uses. */
export class MemoryWindowCounters implements WindowCounters {
  private readonly counts = new Map<string, { window: number; total: number; endsAt: number }>();

  constructor(private readonly clock: Clock = Date.now) {}

  add(key: string, amount: number, windowMs: number, limit?: number): Promise<WindowCount> {
    const now = this.clock();
    const window = Math.floor(now / windowMs);
    const endsAt = (window + 1) * windowMs;
    let count = this.counts.get(key);
    if (!count || count.window !== window) {
      if (this.counts.size >= SWEEP_AT) this.sweep(now);
      count = { window, total: 0, endsAt };
      this.counts.set(key, count);
    }
    const added = limit === undefined || count.total + amount <= limit;
    if (added) count.total += amount;
    return Promise.resolve({ total: count.total, added, resetMs: endsAt - now });
  }

  private sweep(now: number): void {
    for (const [key, count] of this.counts) if (count.endsAt <= now) this.counts.delete(key);
  }
}
