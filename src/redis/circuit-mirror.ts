import type { Clock } from '../core/clock.js';
import { CLOSED_CIRCUIT, type CircuitRecord } from '../core/state/route-state-store.js';

type CircuitListener = (key: string, record: CircuitRecord) => void;

interface Entry {
  record: CircuitRecord;
  /** Local time at which Redis drops the key (its TTL, counted from when this replica learnt it). */
  expiresAt: number;
}

/**
 * This replica's copy of every circuit, read synchronously on the hot path.
 *
 * Versions come from one counter in Redis, so within a Redis lifetime a higher version is always
 * a later write: a record from pub/sub or a reply replaces the mirror's only when newer, whatever
 * order the two connections deliver them in. A change made while Redis was away is kept apart as
 * "dirty" with the Redis version it was based on, so the resync can push it back with a
 * compare-and-set against that version.
 */
export class CircuitMirror {
  private readonly entries = new Map<string, Entry>();
  /** Key → the Redis version the local, not yet shared change was made on. */
  private readonly dirty = new Map<string, number>();
  private readonly listeners = new Set<CircuitListener>();
  private highestSeen = 0;

  constructor(
    private readonly clock: Clock,
    private readonly onListenerError: (error: unknown) => void,
  ) {}

  get(key: string): CircuitRecord {
    return this.entry(key)?.record ?? CLOSED_CIRCUIT;
  }

  list(prefix: string): Map<string, CircuitRecord> {
    const result = new Map<string, CircuitRecord>();
    // Deleting expired entries while iterating a Map is safe.
    for (const key of this.entries.keys()) {
      if (!key.startsWith(prefix)) continue;
      const entry = this.entry(key);
      if (entry) result.set(key, entry.record);
    }
    return result;
  }

  /** The highest version this replica has seen come from Redis (records and the counter). */
  get highestRedisVersion(): number {
    return this.highestSeen;
  }

  noteRedisVersion(version: number): void {
    if (version > this.highestSeen) this.highestSeen = version;
  }

  /** A record from Redis (pub/sub, own write): applied only if newer than the mirror's. */
  applyIfNewer(key: string, record: CircuitRecord, ttlMs: number): boolean {
    this.noteRedisVersion(record.version);
    if (this.dirty.has(key)) return false;
    const current = this.entry(key);
    if (current && current.record.version >= record.version) return false;
    this.put(key, record, ttlMs);
    return true;
  }

  /**
   * What Redis holds (or `undefined`: nothing) as of version counter `seq`. Replaces the mirror's
   * record when that one is not newer than `seq`; a newer one arrived by pub/sub meanwhile.
   */
  applySnapshot(key: string, record: CircuitRecord | undefined, ttlMs: number, seq: number): void {
    this.noteRedisVersion(seq);
    if (this.dirty.has(key)) return;
    const current = this.entry(key);
    if (current && current.record.version > seq) return;
    if (record === undefined) {
      if (current) this.entries.delete(key);
      return;
    }
    if (current?.record === record || current?.record.version === record.version) {
      if (current) current.expiresAt = this.clock() + ttlMs;
      return;
    }
    this.put(key, record, ttlMs);
  }

  /** Redis's answer to a resync push settles the circuit, whatever the mirror held. */
  settle(key: string, record: CircuitRecord | undefined, ttlMs: number): void {
    this.dirty.delete(key);
    if (record === undefined) {
      this.entries.delete(key);
      return;
    }
    this.noteRedisVersion(record.version);
    const current = this.entries.get(key);
    if (current?.record === record) return;
    this.put(key, record, ttlMs);
  }

  /** A compare-and-set on the mirror alone (Redis away). */
  compareAndSetLocally(
    key: string,
    expectedVersion: number,
    build: (version: number) => CircuitRecord,
    ttlMs: number,
  ): { ok: boolean; record: CircuitRecord } {
    const current = this.get(key);
    if (current.version !== expectedVersion) return { ok: false, record: current };
    const record = build(current.version + 1);
    if (!this.dirty.has(key)) this.dirty.set(key, current.version);
    this.put(key, record, ttlMs);
    return { ok: true, record };
  }

  dirtyEntries(): [key: string, base: number][] {
    return [...this.dirty];
  }

  isDirty(key: string): boolean {
    return this.dirty.has(key);
  }

  /** After a push: the local change is now in Redis at `version`, and more were made meanwhile. */
  rebase(key: string, version: number): void {
    this.noteRedisVersion(version);
    if (this.dirty.has(key)) this.dirty.set(key, version);
  }

  /** Records that are shared (not dirty) and still alive, with their remaining TTL. */
  cleanEntries(): { key: string; record: CircuitRecord; ttlMs: number }[] {
    const now = this.clock();
    const result: { key: string; record: CircuitRecord; ttlMs: number }[] = [];
    for (const [key, entry] of this.entries) {
      if (this.dirty.has(key) || entry.expiresAt <= now) continue;
      result.push({ key, record: entry.record, ttlMs: entry.expiresAt - now });
    }
    return result;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  versionOf(key: string): number | undefined {
    return this.entry(key)?.record.version;
  }

  recordOf(key: string): CircuitRecord | undefined {
    return this.entry(key)?.record;
  }

  /** Drops records whose TTL ran out (Redis dropped them too). */
  sweep(): void {
    const now = this.clock();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now && !this.dirty.has(key)) this.entries.delete(key);
    }
  }

  onChange(listener: CircuitListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  clearListeners(): void {
    this.listeners.clear();
  }

  private entry(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.clock() && !this.dirty.has(key)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private put(key: string, record: CircuitRecord, ttlMs: number): void {
    this.entries.set(key, { record, expiresAt: this.clock() + ttlMs });
    for (const listener of this.listeners) {
      try {
        listener(key, record);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
