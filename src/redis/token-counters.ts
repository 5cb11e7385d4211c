/** An increment sent with its sequence number, whose fate is unknown (no answer came). */
export interface NumberedIncrement {
  readonly seq: number;
  readonly key: string;
  readonly delta: number;
}

/**
 * Token totals as this replica sees them: the last total Redis reported, plus increments sent and
 * not yet answered, plus increments made while Redis was away or not answered (sent when it
 * returns).
 *
 * Replies on one connection come back in the order the commands were sent, so when a total
 * arrives, every earlier increment is in it and every later one is still pending: the sum stays
 * exact without waiting for Redis.
 *
 * Each increment sent carries this replica's next sequence number, and Redis remembers the last
 * one it applied. One that got no answer (a timeout: Redis may have applied it) is resent with
 * its own number before anything newer, so Redis applies it only if it had not: it is counted
 * once either way.
 */
export class TokenCounters {
  private readonly remote = new Map<string, number>();
  private readonly pending = new Map<string, number>();
  private readonly unsynced = new Map<string, number>();
  /** Unanswered increments, in the order they were sent, to resend with their numbers. */
  private unanswered: NumberedIncrement[] = [];
  private readonly unansweredByKey = new Map<string, number>();
  private seq = 0;

  get(key: string): number {
    return (
      (this.remote.get(key) ?? 0) +
      (this.pending.get(key) ?? 0) +
      (this.unsynced.get(key) ?? 0) +
      (this.unansweredByKey.get(key) ?? 0)
    );
  }

  /** The number of the next increment sent. */
  nextSeq(): number {
    return ++this.seq;
  }

  /** A numbered increment got no answer: resent with its number on the next resync. */
  unansweredSent(increment: NumberedIncrement): void {
    add(this.pending, increment.key, -increment.delta);
    add(this.unansweredByKey, increment.key, increment.delta);
    this.unanswered.push(increment);
  }

  /** Hands the unanswered increments over for resending, oldest first; pending from now on. */
  takeUnanswered(): NumberedIncrement[] {
    const taken = this.unanswered.toSorted((a, b) => a.seq - b.seq);
    this.unanswered = [];
    this.unansweredByKey.clear();
    for (const { key, delta } of taken) add(this.pending, key, delta);
    return taken;
  }

  /** An increment on its way to Redis. */
  sent(key: string, delta: number): void {
    add(this.pending, key, delta);
  }

  /** Redis applied it; `total` includes every increment from every replica up to it. */
  confirmed(key: string, delta: number, total: number): void {
    add(this.pending, key, -delta);
    this.remote.set(key, total);
  }

  /** It was never sent (Redis was away): kept locally, pushed on the next resync. */
  failed(key: string, delta: number): void {
    add(this.pending, key, -delta);
    add(this.unsynced, key, delta);
  }

  /** An increment made while Redis is away. */
  addLocally(key: string, delta: number): void {
    add(this.unsynced, key, delta);
  }

  /** Hands the local increments over for flushing; they count as pending from now on. */
  takeUnsynced(): [key: string, delta: number][] {
    const entries = [...this.unsynced];
    this.unsynced.clear();
    for (const [key, delta] of entries) add(this.pending, key, delta);
    return entries;
  }

  /** Every total Redis holds, as of a moment after every confirmed increment. */
  replaceRemote(totals: Map<string, number>): void {
    this.remote.clear();
    for (const [key, total] of totals) this.remote.set(key, total);
  }

  /** The last totals Redis reported (to put back if Redis lost them). */
  remoteEntries(): [key: string, total: number][] {
    return [...this.remote];
  }

  hasUnsynced(): boolean {
    return this.unsynced.size > 0;
  }
}

/** Float sums of opposite increments can leave a residue like 1e-13; treat it as zero. */
function add(map: Map<string, number>, key: string, delta: number): void {
  const value = (map.get(key) ?? 0) + delta;
  if (Math.abs(value) < 1e-9) map.delete(key);
  else map.set(key, value);
}
