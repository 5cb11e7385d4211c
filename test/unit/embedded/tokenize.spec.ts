import { describe, expect, it } from '@jest/globals';
import { tokenize } from '../../../src/embedded/tokenize.js';

describe('tokenize', () => {
  it('lowercases and splits on anything that is not a letter', () => {
    expect(tokenize('Fix the NullPointerException in Main.java, line 42!')).toEqual([
      'fix',
      'the',
      'nullpointerexception',
      'in',
      'main',
      'java',
      'line',
    ]);
    expect(tokenize('3x+7=22')).toEqual(['x']);
  });

  it('expands contractions into the words GloVe saw', () => {
    expect(tokenize("I don't know, it won't work and we can't stop")).toEqual([
      'i',
      'do',
      'not',
      'know',
      'it',
      'will',
      'not',
      'work',
      'and',
      'we',
      'can',
      'not',
      'stop',
    ]);
    expect(tokenize("we'll see what you've done, I'm sure they're fine, I'd go")).toEqual([
      'we',
      'will',
      'see',
      'what',
      'you',
      'have',
      'done',
      'i',
      'am',
      'sure',
      'they',
      'are',
      'fine',
      'i',
      'would',
      'go',
    ]);
  });

  it("drops a possessive 's, accepts curly apostrophes and splits other apostrophes", () => {
    expect(tokenize('Last month’s invoice isn’t here')).toEqual([
      'last',
      'month',
      'invoice',
      'is',
      'not',
      'here',
    ]);
    expect(tokenize("l'eau à six o'clock")).toEqual(['l', 'eau', 'à', 'six', 'o', 'clock']);
    expect(tokenize("'quoted'")).toEqual(['quoted']);
  });

  it('keeps non-ASCII letters and returns nothing for a text without letters', () => {
    expect(tokenize('Café CRÈME über')).toEqual(['café', 'crème', 'über']);
    expect(tokenize('123 + 456 = ?')).toEqual([]);
    expect(tokenize('')).toEqual([]);
  });
});
