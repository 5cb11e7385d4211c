/**
 * Option texts (descriptions, examples) are the same on every decision: their vectors are kept,
 * keyed by the text itself, up to a bound so that a process fed ever-new questions stays small.
 * When full, the oldest entry goes first.
 */
export class TextVectorCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly maxEntries: number) {}

  get(text: string): V | undefined {
    return this.entries.get(text);
  }

  set(text: string, vector: V): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(text)) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(text, vector);
  }

  get size(): number {
    return this.entries.size;
  }
}
