import type { Clock } from '../clock.js';
import { systemTimers, type Timers } from '../resilience/timers.js';

interface Waiter {
  /** When it gives up (the clock's ms). Waiters join in order and wait equally long, so the
   * deadlines rise along the queue and only the head's can be next. */
  readonly deadline: number;
  readonly settle: (ticket: number) => void;
}

/**
 * The callers waiting for a slot of one concurrency limit: first come, first served, each for at
 * most `waitMs`, at most `size` of them. A freed slot is handed to the longest waiter (it never
 * goes back to the pool for a newcomer to take), and one timer, set for the head's deadline,
 * serves the whole queue: a call that waits costs an entry of a list, not a timer.
 */
export class SlotQueue {
  private readonly waiters: Waiter[] = [];
  private timer: unknown;

  constructor(
    private readonly waitMs: number,
    private readonly size: number,
    private readonly clock: Clock,
    /** The one timer of the queue (the head's deadline) is set on these. */
    private readonly timers: Timers = systemTimers,
  ) {}

  get length(): number {
    return this.waiters.length;
  }

  /**
   * Resolves with the ticket `handOver` gives it, or 0 when the queue is full, after `waitMs`,
   * or when `signal` aborts (the caller's place is freed at once).
   */
  wait(signal?: AbortSignal): Promise<number> {
    if (this.waiters.length >= this.size || this.waitMs <= 0 || signal?.aborted) {
      return Promise.resolve(0);
    }
    return new Promise((resolve) => {
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        this.disarmIfEmpty();
        resolve(0);
      };
      const waiter: Waiter = {
        deadline: this.clock() + this.waitMs,
        settle: (ticket) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(ticket);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.arm();
    });
  }

  /** Gives `ticket` (a slot already counted as taken) to the longest waiter; false if none. */
  handOver(ticket: number): boolean {
    const waiter = this.waiters.shift();
    if (!waiter) return false;
    this.disarmIfEmpty();
    waiter.settle(ticket);
    return true;
  }

  private arm(): void {
    if (this.timer !== undefined || this.waiters.length === 0) return;
    const wait = Math.max(0, this.waiters[0]!.deadline - this.clock());
    this.timer = this.timers.setTimeout(this.expire, wait);
  }

  /** The head's deadline passed: refuses every waiter whose time is up, then waits for the next. */
  private readonly expire = (): void => {
    this.timer = undefined;
    const now = this.clock();
    while (this.waiters.length > 0 && this.waiters[0]!.deadline <= now) {
      this.waiters.shift()!.settle(0);
    }
    this.arm();
  };

  /** Nobody waits: no timer should keep the process up for them. */
  private disarmIfEmpty(): void {
    if (this.waiters.length > 0 || this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
