import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InvalidConfigurationException } from '../../../../../src/core/errors/exceptions.js';
import { cosine } from '../../../../../src/core/decision/models/similarity-scoring.js';
import {
  DEFAULT_WORD_VECTORS_FILE,
  findAsset,
  loadWordVectors,
  WordVectors,
} from '../../../../../src/core/decision/models/word-vectors.js';

const script = fileURLToPath(
  new URL('../../../../../scripts/build-word-vectors.mjs', import.meta.url),
);

describe('the shipped word vectors', () => {
  it('hold the 50,000 most frequent letter-only GloVe words, 100 dimensions, most frequent first', () => {
    const vectors = loadWordVectors();
    expect(vectors.size).toBe(50_000);
    expect(vectors.dimensions).toBe(100);
    expect(vectors.rowOf('the')).toBe(0);
    expect(vectors.rowOf('of')).toBeLessThan(vectors.rowOf('python'));
    expect(vectors.rowOf('zzzqqq')).toBe(-1);
    expect(loadWordVectors()).toBe(vectors);
  });

  it('keep meaning through int8 quantization: related words are closer than unrelated ones', () => {
    const vectors = loadWordVectors();
    const v = (word: string) => vectors.vector(word)!;
    expect(cosine(v('king'), v('queen'))).toBeGreaterThan(cosine(v('king'), v('banana')) + 0.3);
    expect(cosine(v('invoice'), v('payment'))).toBeGreaterThan(cosine(v('invoice'), v('poem')));
    expect(vectors.vector('zzzqqq')).toBeUndefined();
  });
});

describe('WordVectors', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'word-vectors-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads what scripts/build-word-vectors.mjs writes, in frequency order, letters-only words', () => {
    const source = join(dir, 'wink.json');
    const rows: Record<string, number[]> = {
      the: [0.5, -1, 0.25],
      ',': [1, 1, 1],
      cat: [2, 0, -2],
      'well-known': [1, 2, 3],
      '2000': [3, 3, 3],
      café: [0, 0.1, 0],
      dog: [1.9, 0.1, -1.8],
      zebra: [0, 0, 1],
    };
    // wink's rows carry two extra numbers (norm and index) after the dimensions
    const vectors = Object.fromEntries(Object.entries(rows).map(([w, v]) => [w, [...v, 9, 9]]));
    writeFileSync(source, JSON.stringify({ dimensions: 3, words: Object.keys(rows), vectors }));
    const out = join(dir, 'small.bin');
    execFileSync(process.execPath, [script, '--source', source, '--words', '4', '--out', out]);
    const loaded = loadWordVectors(out);
    expect(loaded.size).toBe(4);
    expect(['the', 'cat', 'café', 'dog'].map((w) => loaded.rowOf(w))).toEqual([0, 1, 2, 3]);
    expect(loaded.rowOf('zebra')).toBe(-1);
    expect(loaded.rowOf('well-known')).toBe(-1);
    for (const word of ['the', 'cat', 'café', 'dog']) {
      const expected = rows[word]!;
      const actual = Array.from(loaded.vector(word)!);
      const maxAbs = Math.max(...expected.map(Math.abs));
      actual.forEach((value, d) =>
        expect(Math.abs(value - expected[d]!)).toBeLessThanOrEqual(maxAbs / 254 + 1e-6),
      );
    }
    // regenerating gives the same bytes
    const again = join(dir, 'again.bin');
    execFileSync(process.execPath, [script, '--source', source, '--words', '4', '--out', again]);
    expect(readFileSync(again).equals(readFileSync(out))).toBe(true);
  });

  it('a file in another format is a typed error naming the file and the build script', () => {
    const bad = join(dir, 'bad.bin');
    writeFileSync(bad, 'definitely not vectors, but long enough to have a header');
    expect(() => loadWordVectors(bad)).toThrow(InvalidConfigurationException);
    expect(() => loadWordVectors(bad)).toThrow(
      /bad\.bin is not a word vector file.*build-word-vectors/,
    );
    const truncated = readFileSync(findAsset(DEFAULT_WORD_VECTORS_FILE)).subarray(0, 5000);
    expect(() => WordVectors.parse(truncated, 'cut.bin')).toThrow(/cut\.bin.*expected \d+ bytes/);
  });

  it('a missing file is a typed error naming vectorsPath', () => {
    expect(() => loadWordVectors(join(dir, 'missing.bin'))).toThrow(
      /missing\.bin.*\(vectorsPath\)/,
    );
  });

  it('finds assets/<file> in the nearest ancestor of the calling module, and says so when none has it', () => {
    mkdirSync(join(dir, 'pkg', 'assets'), { recursive: true });
    mkdirSync(join(dir, 'pkg', 'dist', 'core', 'decision'), { recursive: true });
    writeFileSync(join(dir, 'pkg', 'assets', 'v.bin'), '');
    const from = pathToFileURL(join(dir, 'pkg', 'dist', 'core', 'decision', 'model.js')).href;
    expect(findAsset('v.bin', from)).toBe(join(dir, 'pkg', 'assets', 'v.bin'));
    expect(() => findAsset('nowhere.bin', from)).toThrow(/cannot find assets\/nowhere\.bin/);
  });

  it('fromEntries builds in-memory vectors and rejects rows of different lengths', () => {
    const vectors = WordVectors.fromEntries([
      ['a', [1, 0]],
      ['b', [0, -2]],
    ]);
    const b = vectors.vector('b')!;
    expect(b[0]).toBe(0);
    expect(b[1]).toBeCloseTo(-2, 5);
    expect(vectors.rowNorm(1)).toBeCloseTo(2, 5);
    expect(() =>
      WordVectors.fromEntries([
        ['a', [1, 0]],
        ['b', [1]],
      ]),
    ).toThrow("word vector of 'b'");
    expect(() => WordVectors.fromEntries([])).toThrow(InvalidConfigurationException);
  });
});
