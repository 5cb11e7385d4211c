/** One cached question of a bucket, by meaning. */
interface IndexedQuestion {
  vector: Float32Array;
  guard: string;
  key: string;
  expiresAt: number;
  bucket: Bucket;
  /** Its position in `bucket.items` (swap-removal keeps removal O(1)). */
  slot: number;
}

interface Bucket {
  name: string;
  items: IndexedQuestion[];
}

/** The closest cached question to a new one. */
export interface SemanticMatch {
  /** The exact key of the cached answer. */
  key: string;
  /** Cosine similarity of the two questions, in [-1, 1]. */
  similarity: number;
}

/**
 * The questions of cached answers by their embeddings, per bucket (everything but the last
 * question must match exactly, so only one bucket is searched). A search is a brute-force dot
 * product over L2-normalised Float32Arrays: ~10,000 100-wide vectors take about a millisecond,
 * with no index to build or keep in step. Bounded to `maxEntries` questions in all, the oldest
 * forgotten first; expired ones are dropped as a search meets them.
 */
export class SemanticIndex {
  private readonly buckets = new Map<string, Bucket>();
  /** Insertion order, for eviction; entries removed early are skipped when met. */
  private readonly order: IndexedQuestion[] = [];
  private head = 0;
  private live = 0;

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.live;
  }

  add(
    bucketName: string,
    vector: Float32Array,
    guard: string,
    key: string,
    expiresAt: number,
  ): void {
    let bucket = this.buckets.get(bucketName);
    if (bucket === undefined) {
      bucket = { name: bucketName, items: [] };
      this.buckets.set(bucketName, bucket);
    }
    const item: IndexedQuestion = {
      vector,
      guard,
      key,
      expiresAt,
      bucket,
      slot: bucket.items.length,
    };
    bucket.items.push(item);
    this.order.push(item);
    this.live++;
    while (this.live > this.maxEntries) this.evictOldest();
  }

  /** The most similar question of the bucket with the same guard, at or above `threshold`. */
  nearest(
    bucketName: string,
    vector: Float32Array,
    guard: string,
    threshold: number,
    now: number,
  ): SemanticMatch | undefined {
    const bucket = this.buckets.get(bucketName);
    if (bucket === undefined) return undefined;
    let best: IndexedQuestion | undefined;
    let bestScore = threshold;
    const dims = vector.length;
    const items = bucket.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.expiresAt <= now) {
        this.remove(item);
        continue;
      }
      if (item.guard !== guard || item.vector.length !== dims) continue;
      const other = item.vector;
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += vector[d]! * other[d]!;
      if (dot >= bestScore) {
        bestScore = dot;
        best = item;
      }
    }
    return best === undefined ? undefined : { key: best.key, similarity: bestScore };
  }

  private evictOldest(): void {
    while (this.head < this.order.length) {
      const item = this.order[this.head++]!;
      if (item.slot >= 0) {
        this.remove(item);
        break;
      }
    }
    // drop the consumed prefix now and then, so the queue does not grow without bound
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
  }

  private remove(item: IndexedQuestion): void {
    if (item.slot < 0) return;
    const items = item.bucket.items;
    const last = items.pop()!;
    if (last !== item) {
      items[item.slot] = last;
      last.slot = item.slot;
    }
    item.slot = -1;
    this.live--;
    if (items.length === 0) this.buckets.delete(item.bucket.name);
  }
}

/** An embedding as a unit Float32Array, so a dot product is the cosine; undefined for a zero vector. */
export function unitVector(values: ArrayLike<number>): Float32Array | undefined {
  let norm = 0;
  for (let i = 0; i < values.length; i++) norm += values[i]! * values[i]!;
  if (!(norm > 0) || !Number.isFinite(norm)) return undefined;
  const scale = 1 / Math.sqrt(norm);
  const vector = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) vector[i] = values[i]! * scale;
  return vector;
}
