type Slots = Record<symbol, number | undefined>;

/**
 * Times each attempt for the breaker's slow-call rate: from its admission to its first token (a
 * stream) or its end (a plain call). The times are kept on the attempt's context under symbols
 * of this instance (a strategy and its delegate never share them; nothing else sees them), so
 * nothing outlives a call. Cheaper than a WeakMap keyed by the context: a WeakMap entry per
 * attempt is an ephemeron that every young-generation collection must trace.
 * Idle (keeps nothing) when no slow-call rule is configured.
 */
export class SlowCalls {
  private readonly admittedAt = Symbol('slow-calls:admitted-at');
  private readonly firstTokenAt = Symbol('slow-calls:first-token-at');

  constructor(
    /** Slower than this is slow; undefined: no slow-call rule. */
    private readonly slowCallMs: number | undefined,
    private readonly clock: () => number,
  ) {}

  /** The attempt was admitted at `now` (the strategy's clock reading of its choice). */
  admitted(context: object, now: number): void {
    if (this.slowCallMs !== undefined) (context as Slots)[this.admittedAt] = now;
  }

  firstToken(context: object | undefined): void {
    const slots = context as Slots | undefined;
    if (slots?.[this.admittedAt] === undefined || slots[this.firstTokenAt] !== undefined) return;
    slots[this.firstTokenAt] = this.clock();
  }

  /** Whether the attempt was slower than the threshold; forgets it. */
  wasSlow(context: object | undefined, now: number): boolean {
    const slots = context as Slots | undefined;
    const admittedAt = slots?.[this.admittedAt];
    if (admittedAt === undefined) return false;
    const firstTokenAt = slots![this.firstTokenAt];
    slots![this.admittedAt] = undefined;
    if (firstTokenAt !== undefined) slots![this.firstTokenAt] = undefined;
    return (firstTokenAt ?? now) - admittedAt > this.slowCallMs!;
  }
}
