import type { CircuitMirror } from './circuit-mirror.js';
import { decodeCircuit } from './circuit-codec.js';
import { decodeSticky } from './sticky-codec.js';
import type { StickyMirror } from './sticky-mirror.js';

/** Where a message on the store's channel lands. */
export interface ChannelTargets {
  channel: string;
  /** This replica's id: its own sticky messages are not applied twice. */
  origin: string;
  circuits: CircuitMirror;
  stickies: StickyMirror;
  warn(message: string): void;
}

/**
 * Applies another replica's change to the mirrors (this replica's own circuit changes come back
 * too; their versions make them no-ops). Anything unreadable is ignored with a warning.
 */
export function applyChannelMessage(
  targets: ChannelTargets,
  channel: string,
  message: string,
): void {
  if (channel !== targets.channel) return;
  let event: {
    t?: unknown;
    k?: unknown;
    v?: unknown;
    r?: unknown;
    a?: unknown;
    p?: unknown;
    o?: unknown;
  };
  try {
    event = JSON.parse(message) as typeof event;
  } catch {
    targets.warn(`ignored an unreadable message on ${channel}`);
    return;
  }
  const ttlMs = Number(event.p);
  if (typeof event.k !== 'string' || !(ttlMs > 0)) return;
  if (event.t === 'c') {
    const record =
      typeof event.r === 'string' ? decodeCircuit(event.r, Number(event.v)) : undefined;
    if (record === undefined) {
      targets.warn(`ignored an unreadable circuit '${event.k}'`);
      return;
    }
    targets.circuits.applyIfNewer(event.k, record, ttlMs);
  } else if (event.t === 's' && event.o !== targets.origin) {
    const value = decodeSticky(event.a);
    if (value !== undefined) targets.stickies.applyRemote(event.k, value, ttlMs);
  }
}
