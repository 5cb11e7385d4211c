/**
 * Times each attempt for the breaker's slow-call rate: from its admission to its first token (a
 * stream) or its end (a plain call). Keyed by the attempt's context, so nothing outlives a call.
 * Idle (keeps nothing) when no slow-call rule is configured.
 */
export class SlowCalls {
  private readonly timings = new WeakMap<object, { admittedAt: number; firstTokenAt?: number }>();

  constructor(
    /** Slower than this is slow; undefined: no slow-call rule. */
    private readonly slowCallMs: number | undefined,
    private readonly clock: () => number,
  ) {}

  admitted(context: object): void {
    if (this.slowCallMs !== undefined) this.timings.set(context, { admittedAt: this.clock() });
  }

  firstToken(context: object | undefined): void {
    const timing = context && this.timings.get(context);
    if (timing && timing.firstTokenAt === undefined) timing.firstTokenAt = this.clock();
  }

  /** Whether the attempt was slower than the threshold; forgets it. */
  wasSlow(context: object | undefined, now: number): boolean {
    const timing = context && this.timings.get(context);
    if (!timing) return false;
    this.timings.delete(context);
    return (timing.firstTokenAt ?? now) - timing.admittedAt > this.slowCallMs!;
  }
}
