import type { Redis } from 'ioredis';
import { SKETCH_TTL_MS, type SketchCounts } from '../core/state/sketch-store.js';
import { LuaScript } from './lua-script.js';
import type { RedisKeySpace } from './redis-key-space.js';

/** More buckets than a LatencySketch has: anything beyond is not a sketch's. */
const MAX_BUCKET = 1_000;

/**
 * Adds counts to a sketch's current generation and, once it holds `generationSize` samples,
 * makes it the previous one (dropping the older): the shared sketch forgets by the group's
 * samples, as a local one does by its own. Both generations are hashes of bucket → count, plus
 * `n` (the samples in it) in the current one, under one hash tag (one Cluster slot). An empty
 * add only reads, and creates nothing.
 * KEYS: current, previous. ARGV: generationSize, TTL ms, then bucket, count pairs.
 * Returns {current, previous} as HGETALL lists.
 */
const MERGE_SKETCH = new LuaScript(`
local added = 0
for i = 3, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
  added = added + tonumber(ARGV[i + 1])
end
if added > 0 then
  local n = redis.call('HINCRBY', KEYS[1], 'n', added)
  if n >= tonumber(ARGV[1]) then
    redis.call('RENAME', KEYS[1], KEYS[2])
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2])}
`);

export interface SharedSketchesDeps {
  keys: RedisKeySpace;
  command: () => Redis | undefined;
  isShared: () => boolean;
  /** A command failed: the store switches to local-only (one warning) and resyncs. */
  failed: (error: unknown) => void;
}

/**
 * The Redis store's latency sketches: one script call per merge (add and read back), sent by the
 * sketch's background sync, never on a call's path. The store keeps nothing of them locally:
 * while Redis is away a merge answers `undefined`, and each sketch answers from its own samples.
 */
export class SharedSketches {
  constructor(private readonly deps: SharedSketchesDeps) {}

  async merge(
    key: string,
    add: SketchCounts,
    generationSize: number,
  ): Promise<SketchCounts | undefined> {
    const command = this.deps.command();
    if (!this.deps.isShared() || command === undefined) return undefined;
    const args: number[] = [Math.max(1, Math.floor(generationSize)), SKETCH_TTL_MS];
    for (const [bucket, count] of add) {
      if (!isBucket(bucket) || !(Number.isInteger(count) && count > 0)) continue;
      args.push(bucket, count);
    }
    let reply: unknown;
    try {
      reply = await MERGE_SKETCH.run(command, this.deps.keys.sketch(key), args);
    } catch (error) {
      this.deps.failed(error);
      return undefined;
    }
    const sum = new Map<number, number>();
    for (const generation of (reply as string[][]) ?? []) {
      for (let i = 0; i + 1 < generation.length; i += 2) {
        const bucket = Number(generation[i]);
        const count = Number(generation[i + 1]);
        if (isBucket(bucket) && count > 0) sum.set(bucket, (sum.get(bucket) ?? 0) + count);
      }
    }
    return [...sum];
  }
}

function isBucket(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value < MAX_BUCKET;
}
