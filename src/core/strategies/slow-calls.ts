import type { Clock } from '../clock.js';
import { firstTokenOf, noteStart, recordedStart, type AttemptTimes } from './attempt-times.js';

/** An attempt's own times, when its shared times are on another clock than the strategy's. */
interface OwnTimes {
  startedAt: number;
  firstTokenAt?: number;
}

/**
 * Times each attempt for the breaker's slow-call rule: from its admission to its first token (a
 * stream) or its end (a plain call). The admission is the attempt's start for every part that
 * times it (see attempt-times), so the times live on the attempt's context and nothing outlives a
 * call. Only when those times are on another clock (this strategy was given its own, and a part
 * on another clock took the first reading) does it keep its own, in a WeakMap.
 */
export class SlowCalls {
  private readonly own = new WeakMap<object, OwnTimes>();

  constructor(
    /** Slower than this is slow; undefined: no slow-call rule. */
    private readonly slowCallMs: number | undefined,
  ) {}

  /** The attempt was admitted at `now`, read on `clock` (the strategy's, as every time here). */
  admitted(context: object, clock: Clock, now: number): void {
    if (noteStart(context, clock, now) || this.slowCallMs === undefined) return;
    this.own.set(context, { startedAt: now });
  }

  firstToken(context: object | undefined, clock: Clock): void {
    if (this.slowCallMs === undefined || !context) return;
    if (recordedStart(context, clock) !== undefined) {
      firstTokenOf(context, clock);
      return;
    }
    const own = this.own.get(context);
    if (own) own.firstTokenAt ??= clock();
  }

  /**
   * Whether an attempt this strategy admitted (`admitted`: it did, and this is its settlement)
   * was slower than the threshold, at its end `now`.
   */
  wasSlow(context: object | undefined, admitted: boolean, clock: Clock, now: number): boolean {
    if (this.slowCallMs === undefined || !admitted || !context) return false;
    const startedAt = recordedStart(context, clock);
    if (startedAt !== undefined) {
      const firstTokenAt = (context as AttemptTimes).firstTokenAt;
      return (firstTokenAt ?? now) - startedAt > this.slowCallMs;
    }
    const own = this.own.get(context);
    if (!own) return false;
    this.own.delete(context);
    return (own.firstTokenAt ?? now) - own.startedAt > this.slowCallMs;
  }
}
