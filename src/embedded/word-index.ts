/**
 * The row of each word of a vocabulary, looked up in the vocabulary's own text (the words joined
 * by "\n", as the vector file stores them): an open-addressing table of row numbers keyed by a
 * hash of the word. Building a Map instead made 55,000 strings and entries at load, which with
 * their garbage collection were a third of it.
 */
export class WordIndex {
  /** Row + 1 per slot; 0 is empty. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Where each row's word starts in `text`; one more entry marks the end. */
  private readonly starts: Int32Array;

  /** Rows: the words of `text`, one per line ("" has none). */
  readonly size: number;

  constructor(private readonly text: string) {
    let size = text === '' ? 0 : 1;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) size++;
    this.size = size;
    this.starts = new Int32Array(size + 1);
    let capacity = 16;
    while (capacity < 2 * size) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    let start = 0;
    for (let row = 0; row < size; row++) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      this.starts[row] = start;
      this.insert(row, start, end);
      start = end + 1;
    }
    this.starts[size] = text.length + 1;
  }

  /** The row of `word`, or -1 when it is not in the vocabulary. */
  rowOf(word: string): number {
    return this.slots[this.slotOf(word, 0, word.length)]! - 1;
  }

  /** Adds a row unless its word is already there: the first occurrence keeps its rank. */
  private insert(row: number, start: number, end: number): void {
    const slot = this.slotOf(this.text, start, end);
    if (this.slots[slot] === 0) this.slots[slot] = row + 1;
  }

  /** The slot holding the word `source[from, to)`, or the empty slot where it would go. */
  private slotOf(source: string, from: number, to: number): number {
    let hash = 0x811c9dc5;
    for (let i = from; i < to; i++) hash = Math.imul(hash ^ source.charCodeAt(i), 0x01000193);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0 || this.holds(entry - 1, source, from, to)) return slot;
    }
  }

  /** Whether a row's word is `source[from, to)`. */
  private holds(row: number, source: string, from: number, to: number): boolean {
    const start = this.starts[row]!;
    // While building, the rows already inserted have their next start.
    if (this.starts[row + 1]! - 1 - start !== to - from) return false;
    for (let i = 0; i < to - from; i++) {
      if (this.text.charCodeAt(start + i) !== source.charCodeAt(from + i)) return false;
    }
    return true;
  }
}
