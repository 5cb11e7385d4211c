import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CircuitRecord } from '../core/state/route-state-store.js';
import type { CircuitMirror } from './circuit-mirror.js';
import { decodeCircuitOrClosed, encodeCircuit, withVersion } from './circuit-codec.js';
import type { RedisCounters } from './redis-counters.js';
import { mastersOf } from './redis-connections.js';
import type { RedisKeySpace } from './redis-key-space.js';
import {
  BEGIN_SYNC,
  READ_CIRCUITS,
  READ_TOTALS,
  READ_STICKIES,
  RESTORE_TOKENS,
  SET_STICKY,
  WRITE_CIRCUIT,
  parseWriteCircuitReply,
} from './route-state-scripts.js';
import { decodeSticky, encodeSticky } from './sticky-codec.js';
import type { StickyMirror } from './sticky-mirror.js';
import type { TokenCounters } from './token-counters.js';
import { sendTokenIncrement } from './token-writes.js';

export interface SyncContext {
  readonly command: Redis;
  readonly keys: RedisKeySpace;
  readonly circuits: CircuitMirror;
  readonly stickies: StickyMirror;
  readonly tokens: TokenCounters;
  readonly counters: RedisCounters;
  readonly origin: string;
  /** TTL of a circuit key written now. */
  circuitTtl(record: Omit<CircuitRecord, 'version'>): number;
  warn(message: string): void;
}

const SCAN_BATCH = 500;

/**
 * Brings this replica and Redis together after a (re)connect. The policy, in order:
 *
 * 1. Redis lost its data (a restart without persistence, a flush: the data-set id this replica
 *    synced with is gone, or the version counter went backwards) → every replica puts back its
 *    copy: for each circuit the newest version wins, sticky assignments are put back where Redis
 *    has none, each token total is raised to the highest total a replica last saw.
 * 2. Circuits changed here while Redis was away are written back with a compare-and-set against
 *    the version they were based on: they win if nobody changed that circuit in Redis meanwhile
 *    (or it expired); otherwise Redis wins and the local change is dropped.
 * 3. Sticky assignments made here while Redis was away are written back (the latest assignment
 *    of a conversation is the one to keep).
 * 4. Everything Redis holds is loaded into the mirror (circuits, sticky assignments, token totals),
 *    and token increments counted here while Redis was away are added to Redis's totals.
 * 5. Windowed counters (rpm/tpm, budget spend): this replica's whole contribution to every
 *    window it added to is written back, idempotently (see RedisCounters.writeBack), so what it
 *    counted alone reaches Redis, and a Redis that lost its data gets it back.
 */
export class RouteStateSync {
  /** The Redis data set this replica last synced with. */
  private dataSet: string | undefined;

  constructor(private readonly ctx: SyncContext) {}

  async synchronise(): Promise<void> {
    const { command, keys, circuits } = this.ctx;
    const highest = circuits.highestRedisVersion;
    const [dataSet, seqBefore] = (await BEGIN_SYNC.run(
      command,
      [keys.seq, keys.dataSet],
      [highest, randomUUID()],
    )) as [string, number];
    const lost =
      (this.dataSet !== undefined && this.dataSet !== dataSet) || Number(seqBefore) < highest;
    this.dataSet = dataSet;
    if (lost) {
      this.ctx.warn(
        'Redis came back without the route state (restarted without persistence, or flushed); ' +
          "restoring it from this replica's copy",
      );
      await Promise.all(
        circuits.cleanEntries().map((e) => this.restoreCircuit(e.key, e.record, e.ttlMs)),
      );
    }
    await this.pushLocalCircuits();
    await this.loadCircuits();
    await this.pushStickies(lost);
    await this.loadStickies();
    if (lost) await this.restoreTokenTotals();
    await this.flushTokens();
    await this.loadTokenTotals();
    await this.ctx.counters.writeBack(this.ctx.command);
  }

  /** Only the circuits and assignments changed while away; used until nothing is left to push. */
  async pushLocalChanges(): Promise<void> {
    await this.pushLocalCircuits();
    await this.pushStickies(false);
  }

  hasLocalChanges(): boolean {
    return this.ctx.circuits.dirtyEntries().length > 0 || this.ctx.stickies.hasDirty();
  }

  private async restoreCircuit(key: string, record: CircuitRecord, ttlMs: number): Promise<void> {
    const reply = parseWriteCircuitReply(
      await this.writeCircuit('restore', key, record, 0, record.version, Math.ceil(ttlMs)),
    );
    if (!reply.ok) this.applyStored(key, reply.storedVersion, reply.storedJson, reply.ttlMs, false);
  }

  private async pushLocalCircuits(): Promise<void> {
    const { circuits } = this.ctx;
    await Promise.all(
      circuits.dirtyEntries().map(async ([key, base]) => {
        const record = circuits.recordOf(key);
        if (record === undefined) return;
        const ttlMs = this.ctx.circuitTtl(record);
        const reply = parseWriteCircuitReply(
          // the local version orders it against another replica's push from the same base
          await this.writeCircuit('push', key, record, base, record.version, ttlMs),
        );
        const changedMeanwhile = circuits.recordOf(key) !== record;
        if (reply.ok && changedMeanwhile) circuits.rebase(key, reply.version);
        else if (reply.ok) circuits.settle(key, withVersion(record, reply.version), ttlMs);
        else this.applyStored(key, reply.storedVersion, reply.storedJson, reply.ttlMs, true);
      }),
    );
  }

  private writeCircuit(
    mode: 'push' | 'restore',
    key: string,
    record: CircuitRecord,
    expected: number,
    keep: number,
    ttlMs: number,
  ): Promise<unknown> {
    const { command, keys, origin } = this.ctx;
    return WRITE_CIRCUIT.run(
      command,
      [keys.circuit(key), keys.seq],
      [mode, expected, keep, encodeCircuit(record), ttlMs, keys.channel, key, origin],
    );
  }

  /** What Redis holds after a refused push or restore: settles (push) or applies if newer. */
  private applyStored(
    key: string,
    version: number,
    json: string | null,
    ttlMs: number,
    settle: boolean,
  ): void {
    const record = version > 0 ? this.decode(key, json, version) : undefined;
    // PTTL is -1 only for a key written without a TTL (by something else): give it ours.
    const ttl = ttlMs > 0 ? ttlMs : record ? this.ctx.circuitTtl(record) : 0;
    if (settle) this.ctx.circuits.settle(key, record, ttl);
    else if (record) this.ctx.circuits.applyIfNewer(key, record, ttl);
  }

  private async loadCircuits(): Promise<void> {
    const { command, keys, circuits } = this.ctx;
    const seqAtStart = Number((await command.get(keys.seq)) ?? 0);
    const seen = new Set<string>();
    await this.scan(keys.circuitPattern, async (redisKeys) => {
      const reply = (await READ_CIRCUITS.run(command, [keys.seq, ...redisKeys], [])) as unknown[];
      const seq = Number(reply[0]);
      const rows = reply.slice(1) as [string | null, string | null, number][];
      redisKeys.forEach((redisKey, i) => {
        const key = keys.circuitKeyOf(redisKey);
        const [version, json, ttlMs] = rows[i]!;
        if (key === undefined || version === null) return;
        seen.add(key);
        const record = this.decode(key, json, Number(version));
        circuits.applySnapshot(key, record, Number(ttlMs) > 0 ? Number(ttlMs) : 1, seq);
      });
    });
    // Not in Redis and not newer than the scan: it expired (or was deleted) there.
    for (const key of circuits.keys()) {
      if (!seen.has(key)) circuits.applySnapshot(key, undefined, 0, seqAtStart);
    }
  }

  private async pushStickies(lost: boolean): Promise<void> {
    const { command, keys, stickies, origin } = this.ctx;
    await Promise.all(
      stickies.aliveEntries(!lost).map(async (entry) => {
        // A local assignment made while away is the conversation's latest; a restored one is
        // only put back where Redis has none.
        const onlyIfAbsent = entry.dirty ? '0' : '1';
        await SET_STICKY.run(
          command,
          [keys.sticky(entry.key)],
          [encodeSticky(entry.value), entry.ttlMs, keys.channel, entry.key, origin, onlyIfAbsent],
        );
        if (entry.dirty) stickies.cleanIfUnchanged(entry.key, entry.stamp);
      }),
    );
  }

  private async loadStickies(): Promise<void> {
    const { command, keys, stickies } = this.ctx;
    const stamp = stickies.currentStamp();
    await this.scan(keys.stickyPattern, async (redisKeys) => {
      // one read per assignment: each is its own entity (slot) on a cluster
      const reply = await Promise.all(
        redisKeys.map(
          async (key) => ((await READ_STICKIES.run(command, [key], [])) as [unknown, number][])[0]!,
        ),
      );
      redisKeys.forEach((redisKey, i) => {
        const key = keys.stickyKeyOf(redisKey);
        const [json, ttlMs] = reply[i]!;
        const value = decodeSticky(json);
        if (key === undefined || value === undefined || Number(ttlMs) <= 0) return;
        stickies.applySnapshot(key, value, Number(ttlMs), stamp);
      });
    });
  }

  private async restoreTokenTotals(): Promise<void> {
    const totals = this.ctx.tokens.remoteEntries();
    if (totals.length === 0) return;
    await RESTORE_TOKENS.run(this.ctx.command, [this.ctx.keys.tokens], totals.flat());
  }

  /**
   * Resends the increments that got no answer, with their own numbers and before anything newer
   * (so Redis skips those it had applied), then sends those counted while Redis was away.
   */
  private async flushTokens(): Promise<void> {
    const { command, keys, tokens, origin } = this.ctx;
    const resent = tokens.takeUnanswered();
    const counted = tokens.takeUnsynced().map(([key, delta]) => ({
      seq: tokens.nextSeq(),
      key,
      delta,
    }));
    const results = await Promise.allSettled(
      [...resent, ...counted].map((increment) =>
        sendTokenIncrement(command, keys, origin, tokens, increment),
      ),
    );
    const failure = results.find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private async loadTokenTotals(): Promise<void> {
    const { command, keys, tokens } = this.ctx;
    const all = await command.hgetall(keys.tokens);
    tokens.replaceRemote(parseTotals(all));
  }

  /**
   * Re-reads the token totals (other replicas' usage). Returns false, changing nothing, when Redis
   * no longer holds the data set this replica synced with: it lost its data, a resync is due.
   */
  async refreshTokenTotals(): Promise<boolean> {
    const { command, keys, tokens } = this.ctx;
    const [dataSet, flat] = (await READ_TOTALS.run(command, [keys.tokens, keys.dataSet], [])) as [
      string | null,
      string[],
    ];
    if (dataSet !== this.dataSet) return false;
    const all: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) all[flat[i]!] = flat[i + 1]!;
    tokens.replaceRemote(parseTotals(all));
    return true;
  }

  /** SCAN on every master: on a cluster each holds its own part of the keys. */
  private async scan(pattern: string, onBatch: (keys: string[]) => Promise<void>): Promise<void> {
    for (const node of mastersOf(this.ctx.command)) {
      let cursor = '0';
      do {
        const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_BATCH);
        cursor = next;
        if (found.length > 0) await onBatch(found);
      } while (cursor !== '0');
    }
  }

  private decode(key: string, json: string | null, version: number): CircuitRecord {
    const { record, valid } = decodeCircuitOrClosed(json, version);
    if (!valid) {
      this.ctx.warn(
        `circuit '${key}' in Redis is not a record this library wrote; reading it as closed ` +
          'until it is replaced (check that nothing else writes under this keyPrefix)',
      );
    }
    return record;
  }
}

/** HGETALL of the token totals, as numbers; unreadable fields are skipped. */
export function parseTotals(all: Record<string, string>): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [key, value] of Object.entries(all)) {
    const total = Number(value);
    if (Number.isFinite(total)) totals.set(key, total);
  }
  return totals;
}
