/**
 * The one rule every Redis key of this library follows, so it works on Redis Cluster:
 *
 *   `<prefix><kind>:{<entity>}[:<part>…]`
 *
 * The part in braces is the key's hash tag: Redis Cluster places a key by it alone, so every key
 * of one entity (a window's total and its contributions, the route-state core) lands in one slot,
 * and a script or multi-key command may touch several of them. Keys of different entities may sit
 * on different nodes: never touch two entities in one script or multi-key command (MGET, DEL…);
 * send one command per entity instead. New shared data (cache entries, learned examples, token
 * buckets) builds its keys with this function and one entity per thing it updates atomically.
 */
export function redisKey(prefix: string, kind: string, entity: string, ...parts: string[]): string {
  const tail = parts.map((part) => `:${part}`).join('');
  return `${prefix}${kind}:{${entity}}${tail}`;
}

/**
 * Every Redis key and channel the route state uses, under one prefix, so several routers (or
 * several environments) can share a Redis without seeing each other's state.
 *
 * Circuits, their version counter, the data-set id and the token totals are one entity (the
 * `state:{core}` slot): a circuit's compare-and-set takes its version from the one counter in the
 * same script, and a counter that went backwards is how a lost data set is noticed. Sticky
 * assignments are one entity each (many keys, spread over the cluster); windowed counters are
 * one entity per window (see RedisCounters).
 */
export class RedisKeySpace {
  readonly tokens: string;
  readonly seq: string;
  readonly dataSet: string;
  readonly gauges: string;
  /** Pub/sub channel (not a key: PUBLISH reaches every node of a cluster). */
  readonly channel: string;
  readonly circuitPattern: string;
  readonly stickyPattern: string;
  private readonly circuitPrefix: string;
  private readonly stickyPrefix: string;

  constructor(readonly prefix: string) {
    const core = (...parts: string[]) => redisKey(prefix, 'state', 'core', ...parts);
    this.circuitPrefix = core('circuit', '');
    this.stickyPrefix = `${prefix}sticky:{`;
    this.tokens = core('tokens');
    // The source of versions: one counter for every circuit, so a version is never reused, not
    // even after a circuit's key expired (which would let a stale compare-and-set succeed).
    this.seq = core('seq');
    // Identifies the data set: a Redis that comes back without it has lost the state.
    this.dataSet = core('data-set');
    this.gauges = redisKey(prefix, 'gauges', 'all');
    this.channel = `${prefix}changes`;
    this.circuitPattern = `${escapeGlob(this.circuitPrefix)}*`;
    this.stickyPattern = `${escapeGlob(this.stickyPrefix)}*`;
  }

  /** The last token increment Redis applied from `replica` (see ADD_TOKENS). */
  tokenSeq(replica: string): string {
    return `${this.tokens}:seq:${replica}`;
  }

  circuit(key: string): string {
    return this.circuitPrefix + key;
  }

  sticky(conversationKey: string): string {
    return redisKey(this.prefix, 'sticky', conversationKey);
  }

  /** A window's total and its contributions: one entity, so one slot (see window-scripts.ts). */
  window(counter: string, start: number): [total: string, by: string] {
    const total = redisKey(this.prefix, 'window', `${counter}:${start}`);
    return [total, `${total}:by`];
  }

  /** A latency sketch's two generations: one entity, so one slot (see shared-sketches.ts). */
  sketch(key: string): [current: string, previous: string] {
    return [
      redisKey(this.prefix, 'sketch', key, 'cur'),
      redisKey(this.prefix, 'sketch', key, 'prev'),
    ];
  }

  circuitKeyOf(stored: string): string | undefined {
    return stored.startsWith(this.circuitPrefix)
      ? stored.slice(this.circuitPrefix.length)
      : undefined;
  }

  stickyKeyOf(stored: string): string | undefined {
    return stored.startsWith(this.stickyPrefix) && stored.endsWith('}')
      ? stored.slice(this.stickyPrefix.length, -1)
      : undefined;
  }
}

/** SCAN MATCH treats `* ? [ ] \` as pattern syntax; a prefix must match only itself. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
