/**
 * Times each attempt for the breaker's slow-call rate: from its admission to its first token (a
 * stream) or its end (a plain call). Keyed by the attempt's context, so nothing outlives a call.
 * Idle (keeps nothing) when no slow-call rule is configured.
 */
export class SlowCalls {
  /** Plain numbers, so a call's timing allocates nothing. */
  private readonly admittedAt = new WeakMap<object, number>();
  private readonly firstTokenAt = new WeakMap<object, number>();

  constructor(
    /** Slower than this is slow; undefined: no slow-call rule. */
    private readonly slowCallMs: number | undefined,
    private readonly clock: () => number,
  ) {}

  admitted(context: object): void {
    if (this.slowCallMs !== undefined) this.admittedAt.set(context, this.clock());
  }

  firstToken(context: object | undefined): void {
    if (!context || !this.admittedAt.has(context) || this.firstTokenAt.has(context)) return;
    this.firstTokenAt.set(context, this.clock());
  }

  /** Whether the attempt was slower than the threshold; forgets it. */
  wasSlow(context: object | undefined, now: number): boolean {
    if (this.slowCallMs === undefined || !context) return false;
    const admittedAt = this.admittedAt.get(context);
    if (admittedAt === undefined) return false;
    this.admittedAt.delete(context);
    const firstTokenAt = this.firstTokenAt.get(context);
    if (firstTokenAt !== undefined) this.firstTokenAt.delete(context);
    return (firstTokenAt ?? now) - admittedAt > this.slowCallMs;
  }
}
