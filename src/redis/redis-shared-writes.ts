import type { Redis } from 'ioredis';
import type { CircuitRecord, StickyAssignment } from '../core/state/route-state-store.js';
import type { CircuitMirror } from './circuit-mirror.js';
import { decodeCircuitOrClosed, encodeCircuit, withVersion } from './circuit-codec.js';
import type { RedisKeySpace } from './redis-key-space.js';
import { SET_STICKY, WRITE_CIRCUIT, parseWriteCircuitReply } from './route-state-scripts.js';
import { encodeSticky } from './sticky-codec.js';
import type { StickyMirror } from './sticky-mirror.js';

/** What a write through Redis needs of the store. */
export interface SharedWriteLink {
  /** The command connection; only called while the store is shared. */
  command(): Redis;
  keys: RedisKeySpace;
  /** Identifies this replica's messages on the channel. */
  origin: string;
  /** A command failed: the store goes local-only and resyncs. */
  failed(error: unknown): void;
  /** Redis lost its data: the store goes local-only and puts its state back. */
  lost(reason: string): void;
}

export type CasResult = { ok: boolean; record: CircuitRecord };

/**
 * A circuit change as an atomic compare-and-set in Redis (one Lua call), applied to the mirror
 * at once. A failed command falls back to `locally`; a sequence that went backwards means Redis
 * lost its data; a lost race adopts the stored circuit.
 */
export async function compareAndSetShared(
  link: SharedWriteLink,
  circuits: CircuitMirror,
  change: {
    key: string;
    expected: CircuitRecord;
    next: Omit<CircuitRecord, 'version'>;
    ttlMs: number;
  },
  locally: () => CasResult,
): Promise<CasResult> {
  const { key, expected, next, ttlMs } = change;
  const { keys } = link;
  const highestBefore = circuits.highestRedisVersion;
  let reply;
  try {
    reply = parseWriteCircuitReply(
      await WRITE_CIRCUIT.run(
        link.command(),
        [keys.circuit(key), keys.seq],
        ['cas', expected.version, 0, encodeCircuit(next), ttlMs, keys.channel, key, link.origin],
      ),
    );
  } catch (error) {
    link.failed(error);
    return locally();
  }
  if (reply.ok) {
    const record = withVersion(next, reply.version);
    circuits.applyIfNewer(key, record, ttlMs);
    return { ok: true, record };
  }
  if (reply.seq < highestBefore) {
    // The counter went backwards: Redis lost its data. The resync puts the state back.
    link.lost('Redis lost the route state (restarted without persistence, or flushed)');
    return { ok: false, record: circuits.get(key) };
  }
  const stored =
    reply.storedVersion > 0
      ? decodeCircuitOrClosed(reply.storedJson, reply.storedVersion).record
      : undefined;
  circuits.applySnapshot(key, stored, reply.ttlMs > 0 ? reply.ttlMs : ttlMs, reply.seq);
  return { ok: false, record: circuits.get(key) };
}

/** A sticky assignment written through to Redis (SET PX + publish); kept dirty if it fails. */
export async function writeStickyShared(
  link: SharedWriteLink,
  stickies: StickyMirror,
  conversationKey: string,
  value: StickyAssignment,
  ttlMs: number,
): Promise<void> {
  try {
    await SET_STICKY.run(
      link.command(),
      [link.keys.sticky(conversationKey)],
      [encodeSticky(value), ttlMs, link.keys.channel, conversationKey, link.origin, '0'],
    );
  } catch (error) {
    stickies.markDirty(conversationKey);
    link.failed(error);
  }
}
