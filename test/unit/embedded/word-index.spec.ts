import { describe, expect, it } from '@jest/globals';
import { WordIndex } from '../../../src/embedded/word-index.js';

describe('WordIndex', () => {
  it('finds each word at its row, the first of repeated words, and nothing else', () => {
    const index = new WordIndex(['the', 'café', 'cat', 'the', 'ca', 'cats'].join('\n'));
    expect(['the', 'café', 'cat', 'ca', 'cats'].map((w) => index.rowOf(w))).toEqual([
      0, 1, 2, 4, 5,
    ]);
    for (const missing of ['', 'c', 'cafe', 'the\ncafé', 'dog', 'Cat']) {
      expect(index.rowOf(missing)).toBe(-1);
    }
  });

  it('keeps every row of a large vocabulary apart, through hash collisions', () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);
    const index = new WordIndex(words.join('\n'));
    const misplaced = words.filter((word, row) => index.rowOf(word) !== row);
    expect(misplaced).toEqual([]);
    expect(index.rowOf('w')).toBe(-1);
    expect(index.rowOf('wzzzzz')).toBe(-1);
  });

  it('an empty vocabulary finds nothing', () => {
    const empty = new WordIndex('');
    expect(empty.size).toBe(0);
    expect(empty.rowOf('the')).toBe(-1);
  });
});
