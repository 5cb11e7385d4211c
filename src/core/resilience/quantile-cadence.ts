/**
 * Samples between two readings of a learnt quantile: reading one walks the sketch's buckets,
 * which costs as much as the rest of a fast call's routing, and a few samples more move a p99
 * by nothing.
 */
export const QUANTILE_READ_EVERY = 16;

/**
 * When a value learnt from a sketch's quantiles (a deadline, a hedge delay) is read again: after
 * every `every` samples recorded, and at the first sample while it is still warming up (below
 * its minimum samples), so the learnt value replaces the configured one as soon as it may. A
 * change of what the sketch answers from outside its own samples (a shared sketch's merge,
 * every second at most) makes it due at once. The owner asks `due()` before it reads, and says
 * `read(learnt)` after.
 */
export class QuantileCadence {
  /** Samples to record before the next reading; 0: due now. */
  private countdown = 0;

  constructor(private readonly every = QUANTILE_READ_EVERY) {}

  /** Whether the quantiles should be read again now. */
  due(): boolean {
    return this.countdown === 0;
  }

  /**
   * The quantiles were just read: `learnt` false (too few samples yet) makes the next sample
   * due at once, so the warm-up count is noticed the moment it is reached.
   */
  read(learnt: boolean): void {
    this.countdown = learnt ? this.every : 1;
  }

  /** One sample was recorded. */
  recorded(): void {
    if (this.countdown > 0) this.countdown -= 1;
  }

  /** What the sketch answers changed wholesale (a merge came, or was set aside). */
  changed(): void {
    this.countdown = 0;
  }
}
