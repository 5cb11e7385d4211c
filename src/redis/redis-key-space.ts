/**
 * Every Redis key and channel the store uses, under one prefix, so several routers (or several
 * environments) can share a Redis without seeing each other's state.
 */
export class RedisKeySpace {
  readonly tokens: string;
  readonly seq: string;
  readonly dataSet: string;
  readonly channel: string;
  readonly circuitPattern: string;
  readonly stickyPattern: string;
  private readonly circuitPrefix: string;
  private readonly stickyPrefix: string;

  constructor(readonly prefix: string) {
    this.circuitPrefix = `${prefix}circuit:`;
    this.stickyPrefix = `${prefix}sticky:`;
    this.tokens = `${prefix}tokens`;
    // The source of versions: one counter for every circuit, so a version is never reused, not
    // even after a circuit's key expired (which would let a stale compare-and-set succeed).
    this.seq = `${prefix}seq`;
    // Identifies the data set: a Redis that comes back without it has lost the state.
    this.dataSet = `${prefix}data-set`;
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
    return this.stickyPrefix + conversationKey;
  }

  circuitKeyOf(redisKey: string): string | undefined {
    return redisKey.startsWith(this.circuitPrefix)
      ? redisKey.slice(this.circuitPrefix.length)
      : undefined;
  }

  stickyKeyOf(redisKey: string): string | undefined {
    return redisKey.startsWith(this.stickyPrefix)
      ? redisKey.slice(this.stickyPrefix.length)
      : undefined;
  }
}

/** SCAN MATCH treats `* ? [ ] \` as pattern syntax; a prefix must match only itself. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
