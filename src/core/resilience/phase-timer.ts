import type { Clock } from '../clock.js';
import type { TimeoutPhase } from '../errors/timeout-exception.js';
import type { Timers } from './timers.js';

/**
 * The timer of an attempt's armed phase (attempt, first token, idle), re-armed once per streamed
 * event. Re-arming only moves a deadline: the one running timer, when it fires before the
 * deadline, sets itself again for what is left, instead of a clearTimeout and a setTimeout per
 * event (each allocates and re-sorts Node's timer lists). Disarming only forgets the deadline; a
 * timer that fires while nothing is armed ends there.
 */
export class PhaseTimer {
  private timer: unknown;
  /** When the running timer fires, as the clock reads. */
  private firesAt = 0;
  /** When the armed phase expires; undefined while disarmed. */
  private deadline: number | undefined;
  /** Whether the deadline was moved since the timer was set (an early firing re-arms). */
  private moved = false;
  private phase: TimeoutPhase = 'attempt';
  private ms = 0;

  constructor(
    private readonly timers: Timers,
    private readonly clock: Clock,
    private readonly expire: (phase: TimeoutPhase, ms: number) => void,
  ) {}

  /** Starts (or restarts) `phase` at `now`; `undefined` ms leaves it unbounded. */
  arm(phase: TimeoutPhase, ms: number | undefined, now: number): void {
    if (ms === undefined) {
      this.deadline = undefined;
      return;
    }
    this.phase = phase;
    this.ms = ms;
    const deadline = now + ms;
    this.deadline = deadline;
    if (this.timer !== undefined && this.firesAt <= deadline) {
      this.moved = true;
      return;
    }
    // none running, or one that would fire too late (a shorter phase after a longer one)
    this.stop();
    this.set(ms, deadline);
  }

  disarm(): void {
    this.deadline = undefined;
  }

  /** Clears the running timer: the attempt is over. */
  stop(): void {
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private set(ms: number, firesAt: number): void {
    this.firesAt = firesAt;
    this.moved = false;
    this.timer = this.timers.setTimeout(this.fire, ms);
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const deadline = this.deadline;
    if (deadline === undefined) return;
    // re-armed since this timer was set: wait for what is left. Only then, so a clock that
    // does not follow the timers (a test's) still expires a phase never re-armed.
    const left = deadline - this.clock();
    if (this.moved && left > 0) {
      this.set(left, deadline);
      return;
    }
    this.deadline = undefined;
    this.expire(this.phase, this.ms);
  };
}
