import type { Clock } from '../clock.js';

/** A sketch's counts: `[bucket, count]` pairs, buckets as LatencySketch numbers them. */
export type SketchCounts = readonly (readonly [bucket: number, count: number])[];

/**
 * Latency sketches shared by every replica (each model's times to first token and gaps between
 * chunks, a hedged group's answer times). A sketch is two generations of counts: adds go to the
 * current one, which becomes the previous one (the older one dropped) once it holds
 * `generationSize` samples, so the shared sketch forgets as a local LatencySketch does, by
 * samples of the whole group.
 */
export interface SketchStore {
  /**
   * Adds `add` (may be empty: a read) to the sketch `key` and returns both generations summed,
   * every replica's samples in them; `undefined` when the store does not share right now (the
   * caller keeps to what it learnt itself).
   */
  mergeSketch(
    key: string,
    add: SketchCounts,
    generationSize: number,
  ): SketchCounts | undefined | Promise<SketchCounts | undefined>;
}

/** A sketch nobody added to for this long is forgotten (the Redis keys' TTL too). */
export const SKETCH_TTL_MS = 24 * 60 * 60_000;
/** Most sketches an in-memory store keeps (two per model and one per hedged group). */
export const MAX_LOCAL_SKETCHES = 10_000;

interface StoredSketch {
  current: Map<number, number>;
  currentCount: number;
  previous: Map<number, number>;
  expiresAt: number;
}

/** The in-memory store's sketches: one process, so what its models share is their own. */
export class LocalSketches implements SketchStore {
  /** In order of last add, so the first is the stalest. */
  private readonly sketches = new Map<string, StoredSketch>();

  constructor(private readonly clock: Clock) {}

  mergeSketch(key: string, add: SketchCounts, generationSize: number): SketchCounts {
    const now = this.clock();
    let sketch = this.sketches.get(key);
    if (sketch && sketch.expiresAt <= now) {
      this.sketches.delete(key);
      sketch = undefined;
    }
    if (add.length > 0) {
      if (!sketch) {
        sketch = { current: new Map(), currentCount: 0, previous: new Map(), expiresAt: 0 };
        if (this.sketches.size >= MAX_LOCAL_SKETCHES) {
          this.sketches.delete(this.sketches.keys().next().value!);
        }
      }
      this.sketches.delete(key);
      this.sketches.set(key, sketch);
      sketch.expiresAt = now + SKETCH_TTL_MS;
      for (const [bucket, count] of add) {
        sketch.current.set(bucket, (sketch.current.get(bucket) ?? 0) + count);
        sketch.currentCount += count;
      }
      if (sketch.currentCount >= generationSize) {
        sketch.previous = sketch.current;
        sketch.current = new Map();
        sketch.currentCount = 0;
      }
    }
    if (!sketch) return [];
    const sum = new Map(sketch.previous);
    for (const [bucket, count] of sketch.current) sum.set(bucket, (sum.get(bucket) ?? 0) + count);
    return [...sum];
  }
}
