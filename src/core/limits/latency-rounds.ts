/** A round whose fastest answer is over this multiple of the baseline is slow. */
const TOLERANCE = 2;
/** Slow rounds in a row that say the model is queueing calls (one can be a pause of ours). */
const SLOW_ROUNDS = 2;
/** How far each round moves the baseline: it follows a lasting change in some 20 rounds. */
const SMOOTHING = 0.1;
/** The fewest answers that make a round, whatever the limit. */
const MIN_ROUND = 4;

/**
 * The latency signal of an adaptive limit, built not to shrink on noise: it looks at each round
 * (`limit` answers, at least 4) through its fastest answer, the latency the model gives when
 * nothing else is in the way (as TCP Vegas takes its minimum round trip), so one slow answer, a
 * call that waited out a retry, or a collection pause in this process does not count. The
 * baseline is a slow average of those minimums. The limit is told to shrink when two rounds in
 * a row are over twice the baseline: a provider that queues calls instead of refusing them.
 */
export class LatencyRounds {
  private baselineMs: number | undefined;
  private fastestMs = Infinity;
  private answers = 0;
  private slowRounds = 0;

  /** Counts one answer; true when it closes the second slow round in a row. */
  slowerThanBaseline(latencyMs: number, limit: number): boolean {
    if (latencyMs < this.fastestMs) this.fastestMs = latencyMs;
    this.answers += 1;
    if (this.answers < Math.max(limit, MIN_ROUND)) return false;
    const fastest = this.fastestMs;
    this.fastestMs = Infinity;
    this.answers = 0;
    if (this.baselineMs === undefined) {
      this.baselineMs = fastest;
      return false;
    }
    const slow = fastest > this.baselineMs * TOLERANCE;
    this.baselineMs += (fastest - this.baselineMs) * SMOOTHING;
    this.slowRounds = slow ? this.slowRounds + 1 : 0;
    if (this.slowRounds < SLOW_ROUNDS) return false;
    this.slowRounds = 0;
    return true;
  }
}
