/** The delay before retry number `retry` (1 for the first retry), in ms. */
export type Backoff = (retry: number) => number;

export interface FullJitterBackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  /** Uniform in [0, 1); injectable so tests get exact delays. */
  random?: () => number;
}

/**
 * Exponential backoff with full jitter (AWS architecture blog): a uniform delay in
 * [0, min(max, base × 2^(retry-1))). Spreads the retries of many concurrent callers instead of
 * synchronising them into waves.
 */
export function fullJitterBackoff(options: FullJitterBackoffOptions): Backoff {
  const random = options.random ?? Math.random;
  return (retry) => {
    const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
    const sample = Math.min(Math.max(random(), 0), 1);
    return Math.floor(sample * ceiling);
  };
}
