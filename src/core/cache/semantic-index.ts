/** One cached question of a bucket, by meaning. */
interface IndexedQuestion {
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
  /** The items' vectors back to back (item `i` at `i * dims`): one scan over one array. */
  data: Float32Array;
  dims: number;
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
    if (bucket !== undefined && bucket.dims !== vector.length) return; // another embedding model
    if (bucket === undefined) {
      const dims = vector.length;
      bucket = { name: bucketName, items: [], data: new Float32Array(dims * 16), dims };
      this.buckets.set(bucketName, bucket);
    }
    const at = bucket.items.length * bucket.dims;
    if (at + bucket.dims > bucket.data.length) {
      const grown = new Float32Array(bucket.data.length * 2);
      grown.set(bucket.data);
      bucket.data = grown;
    }
    bucket.data.set(vector, at);
    const item: IndexedQuestion = {
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
    if (bucket === undefined || bucket.dims !== vector.length) return undefined;
    let best: IndexedQuestion | undefined;
    let bestScore = threshold;
    const { dims, data, items } = bucket;
    let expired: IndexedQuestion[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.expiresAt <= now) {
        (expired ??= []).push(item);
        continue;
      }
      if (item.guard !== guard) continue;
      const dot = dotAt(vector, data, i * dims, dims);
      if (dot >= bestScore) {
        bestScore = dot;
        best = item;
      }
    }
    // removed after the scan, which then reads one array that nothing changes under it
    if (expired !== undefined) for (const item of expired) this.remove(item);
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
    const bucket = item.bucket;
    const items = bucket.items;
    const last = items.pop()!;
    if (last !== item) {
      const dims = bucket.dims;
      bucket.data.copyWithin(item.slot * dims, last.slot * dims, last.slot * dims + dims);
      items[item.slot] = last;
      last.slot = item.slot;
    }
    item.slot = -1;
    this.live--;
    if (items.length === 0) this.buckets.delete(item.bucket.name);
  }
}

/** The dot product of `a` with the `dims` values of `data` from `offset`, four at a time. */
function dotAt(a: Float32Array, data: Float32Array, offset: number, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dims; d += 4) {
    s0 += a[d]! * data[offset + d]!;
    s1 += a[d + 1]! * data[offset + d + 1]!;
    s2 += a[d + 2]! * data[offset + d + 2]!;
    s3 += a[d + 3]! * data[offset + d + 3]!;
  }
  for (; d < dims; d++) s0 += a[d]! * data[offset + d]!;
  return s0 + s1 + s2 + s3;
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
