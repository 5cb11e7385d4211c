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

  constructor(
    private readonly text: string,
    readonly size: number,
  ) {
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
    let hash = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      if (this.holds(entry - 1, word)) return entry - 1;
    }
  }

  /** Adds a row unless its word is already there: the first occurrence keeps its rank. */
  private insert(row: number, start: number, end: number): void {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ this.text.charCodeAt(i), 0x01000193);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) {
        this.slots[slot] = row + 1;
        return;
      }
      if (this.sameWord(entry - 1, start, end)) return;
    }
  }

  private holds(row: number, word: string): boolean {
    const start = this.starts[row]!;
    if (this.wordEnd(row) - start !== word.length) return false;
    for (let i = 0; i < word.length; i++) {
      if (this.text.charCodeAt(start + i) !== word.charCodeAt(i)) return false;
    }
    return true;
  }

  private sameWord(row: number, start: number, end: number): boolean {
    const other = this.starts[row]!;
    if (this.wordEnd(row) - other !== end - start) return false;
    for (let i = 0; i < end - start; i++) {
      if (this.text.charCodeAt(other + i) !== this.text.charCodeAt(start + i)) return false;
    }
    return true;
  }

  /** The end of a row's word (while building, rows already inserted have their next start). */
  private wordEnd(row: number): number {
    return this.starts[row + 1]! - 1;
  }
}
