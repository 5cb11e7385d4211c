import type { Clock } from '../core/clock.js';
import type { StickyAssignment } from '../core/state/route-state-store.js';

export interface AliveSticky {
  key: string;
  value: StickyAssignment;
  ttlMs: number;
  stamp: number;
  dirty: boolean;
}

interface Entry {
  value: StickyAssignment;
  expiresAt: number;
  /** Local write order, so a resync snapshot never overwrites a newer assignment. */
  stamp: number;
}

/**
 * Sticky conversations as this replica sees them: its own assignments and the other replicas'
 * (from pub/sub), each until its TTL runs out. Assignments made while Redis was away are "dirty"
 * and written back on resync.
 */
export class StickyMirror {
  private readonly entries = new Map<string, Entry>();
  private readonly dirty = new Set<string>();
  private stampCounter = 0;

  constructor(private readonly clock: Clock) {}

  get(key: string): StickyAssignment | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      this.dirty.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: StickyAssignment, ttlMs: number): void {
    this.entries.set(key, { value, expiresAt: this.clock() + ttlMs, stamp: ++this.stampCounter });
  }

  /** Another replica's assignment; ignored while a local one waits to be written back. */
  applyRemote(key: string, value: StickyAssignment, ttlMs: number): void {
    if (this.dirty.has(key)) return;
    this.set(key, value, ttlMs);
  }

  /** A snapshot value read after `stamp`; a newer local or remote assignment wins over it. */
  applySnapshot(key: string, value: StickyAssignment, ttlMs: number, stamp: number): void {
    if (this.dirty.has(key)) return;
    const current = this.entries.get(key);
    if (current && current.stamp > stamp) return;
    this.entries.set(key, { value, expiresAt: this.clock() + ttlMs, stamp: current?.stamp ?? 0 });
  }

  markDirty(key: string): void {
    this.dirty.add(key);
  }

  isDirty(key: string): boolean {
    return this.dirty.has(key);
  }

  /** Written back; unless it was assigned again meanwhile (then that one still waits). */
  cleanIfUnchanged(key: string, stamp: number): void {
    if (this.entries.get(key)?.stamp === stamp) this.dirty.delete(key);
  }

  /** The current write-order stamp: snapshot reads that start now are older than later writes. */
  currentStamp(): number {
    return this.stampCounter;
  }

  /** Entries still alive, with their remaining TTL; `onlyDirty` for the normal resync. */
  aliveEntries(onlyDirty: boolean): AliveSticky[] {
    const now = this.clock();
    const result: AliveSticky[] = [];
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) continue;
      const dirty = this.dirty.has(key);
      if (onlyDirty && !dirty) continue;
      const ttlMs = Math.ceil(entry.expiresAt - now);
      result.push({ key, value: entry.value, ttlMs, stamp: entry.stamp, dirty });
    }
    return result;
  }

  hasDirty(): boolean {
    return this.dirty.size > 0;
  }

  sweep(): void {
    const now = this.clock();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
        this.dirty.delete(key);
      }
    }
  }
}
