/**
 * A bounded histogram of durations: log-spaced buckets 10 % wide (so a quantile is off by at most
 * 10 %, always upwards) in two generations of `generationSize` samples each. When the current
 * generation fills, the previous one is dropped: the sketch forgets what is older than the last
 * 1–2 generations, so a model that changed speed is relearnt, and memory stays fixed (two
 * arrays of BUCKETS numbers) whatever the traffic.
 */
const GROWTH = 1.1;
const LOG_GROWTH = Math.log(GROWTH);
/** Enough buckets for 2^31 ms (about 25 days): the longest timer Node holds. */
export const BUCKETS = Math.ceil(Math.log(2 ** 31) / LOG_GROWTH) + 2;

export interface LatencySketchOptions {
  /** Samples per generation; the sketch remembers the last 1–2 generations. Default 256. */
  generationSize?: number;
}

export class LatencySketch {
  private readonly generationSize: number;
  private current = new Float64Array(BUCKETS);
  private previous = new Float64Array(BUCKETS);
  private currentCount = 0;
  private previousCount = 0;

  constructor(options: LatencySketchOptions = {}) {
    this.generationSize = Math.max(1, Math.floor(options.generationSize ?? 256));
  }

  /** Adds one duration in ms (negative or non-finite values are ignored). */
  record(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.recordBucket(bucketOf(ms));
  }

  /** Adds one sample to bucket `index` (see `bucketOf`). */
  recordBucket(index: number): void {
    if (this.currentCount >= this.generationSize) {
      const dropped = this.previous;
      this.previous = this.current;
      this.previousCount = this.currentCount;
      dropped.fill(0);
      this.current = dropped;
      this.currentCount = 0;
    }
    this.current[index]! += 1;
    this.currentCount += 1;
  }

  /** Samples the sketch remembers now. */
  count(): number {
    return this.currentCount + this.previousCount;
  }

  /**
   * The duration at or below which a share `q` (0–1) of the remembered samples fell: the upper
   * bound of its bucket. `undefined` with no samples.
   */
  quantile(q: number): number | undefined {
    const total = this.count();
    if (total === 0) return undefined;
    const rank = Math.max(1, Math.ceil(Math.min(1, Math.max(0, q)) * total));
    let seen = 0;
    for (let index = 0; index < BUCKETS; index += 1) {
      seen += this.current[index]! + this.previous[index]!;
      if (seen >= rank) return upperBoundOf(index);
    }
    return upperBoundOf(BUCKETS - 1);
  }
}

/** Bucket 0 holds [0, 1] ms; bucket i > 0 holds (1.1^(i-1), 1.1^i]. */
export function bucketOf(ms: number): number {
  if (ms <= 1) return 0;
  return Math.min(BUCKETS - 1, Math.ceil(Math.log(ms) / LOG_GROWTH));
}

export function upperBoundOf(index: number): number {
  return index === 0 ? 1 : GROWTH ** index;
}
