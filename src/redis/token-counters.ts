/**
 * Token totals as this replica sees them: the last total Redis reported, plus increments sent and
 * not yet answered, plus increments made while Redis was away (flushed when it returns).
 *
 * Replies on one connection come back in the order the commands were sent, so when a total
 * arrives, every earlier increment is in it and every later one is still pending: the sum stays
 * exact without waiting for Redis.
 */
export class TokenCounters {
  private readonly remote = new Map<string, number>();
  private readonly pending = new Map<string, number>();
  private readonly unsynced = new Map<string, number>();

  get(key: string): number {
    return (
      (this.remote.get(key) ?? 0) + (this.pending.get(key) ?? 0) + (this.unsynced.get(key) ?? 0)
    );
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

  /** It did not reach Redis (or its answer was lost): kept locally, pushed on the next resync. */
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
