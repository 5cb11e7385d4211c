import type { Timers } from '../resilience/timers.js';

/**
 * A pending hedge delay: `fire` runs when it is due, unless it was removed first. A call's own
 * object can be its entry (one allocation for both), or `add` makes one around a function.
 */
export interface DueEntry {
  readonly at: number;
  /** In the list (false once removed or fired). */
  queued: boolean;
  prev: DueEntry | undefined;
  next: DueEntry | undefined;
  fire(): void;
}

class CallbackEntry implements DueEntry {
  queued = false;
  prev: DueEntry | undefined = undefined;
  next: DueEntry | undefined = undefined;

  constructor(
    readonly at: number,
    private readonly callback: () => void,
  ) {}

  fire(): void {
    this.callback();
  }
}

/**
 * The hedge delays of one group's calls in flight, on one timer instead of a timer per call: a
 * call that answers before its delay (nearly all) only adds and removes an entry, O(1). The list
 * is kept in deadline order; deadlines mostly grow (same delay, later start), so an entry is
 * added at the tail. The timer is armed for the earliest deadline and, when it fires, runs what
 * is due and re-arms for the next. It is not cleared when the list empties (that would cost a
 * timer per call again): it fires once more, at most one delay later, finds nothing, and stops.
 * It is unref'd, so it never keeps a process alive.
 */
export class HedgeDelays {
  private head: DueEntry | undefined;
  private tail: DueEntry | undefined;
  private handle: unknown;
  /** When the armed timer fires; Infinity when none is armed. */
  private armedAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly timers: Timers,
    private readonly clock: () => number,
  ) {}

  /** Runs `fire` at `at` (epoch ms of the clock), unless `remove` is called first. */
  add(at: number, fire: () => void): DueEntry {
    return this.insert(new CallbackEntry(at, fire));
  }

  /** Queues `entry`: its `fire` runs at its `at`, unless `remove` is called first. */
  insert<E extends DueEntry>(entry: E): E {
    entry.queued = true;
    let after = this.tail;
    while (after && after.at > entry.at) after = after.prev;
    entry.prev = after;
    entry.next = after ? after.next : this.head;
    if (entry.next) entry.next.prev = entry;
    else this.tail = entry;
    if (after) after.next = entry;
    else this.head = entry;
    if (entry.at < this.armedAt) this.arm(entry.at);
    return entry;
  }

  /** The call produced (or failed) before its delay: its entry goes, O(1). */
  remove(entry: DueEntry): void {
    if (!entry.queued) return;
    entry.queued = false;
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    entry.prev = entry.next = undefined;
  }

  /** Entries waiting (tests). */
  size(): number {
    let count = 0;
    for (let entry = this.head; entry; entry = entry.next) count += 1;
    return count;
  }

  private arm(at: number): void {
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.armedAt = at;
    this.handle = this.timers.setTimeout(() => this.expire(), Math.max(0, at - this.clock()));
    (this.handle as { unref?: () => void } | undefined)?.unref?.();
  }

  private expire(): void {
    this.handle = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    const now = this.clock();
    while (this.head && this.head.at <= now) {
      const entry = this.head;
      this.remove(entry);
      entry.fire();
    }
    if (this.head) this.arm(this.head.at);
  }
}
