import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { cosine } from '../../../src/core/decision/models/similarity-scoring.js';
import {
  DEFAULT_WORD_VECTORS_FILE,
  findAsset,
  loadWordVectors,
  WordVectors,
} from '../../../src/embedded/word-vectors.js';

const script = fileURLToPath(
  new URL('../../../src/embedded/scripts/build-word-vectors.mjs', import.meta.url),
);

describe('the shipped word vectors', () => {
  it('hold the 50,000 most frequent letter-only GloVe words, 100 dimensions, most frequent first, then the glossary', () => {
    const vectors = loadWordVectors();
    expect(vectors.size).toBeGreaterThan(55_000);
    expect(vectors.dimensions).toBe(100);
    expect(vectors.rowOf('the')).toBe(0);
    expect(vectors.rowOf('of')).toBeLessThan(vectors.rowOf('python'));
    expect(vectors.rowOf('python')).toBeLessThan(50_000);
    for (const word of ['regex', 'kubernetes', 'login', 'rephrase', 'ibuprofen']) {
      expect(vectors.rowOf(word)).toBeGreaterThanOrEqual(50_000);
    }
    expect(vectors.rowOf('zzzqqq')).toBe(-1);
    expect(loadWordVectors()).toBe(vectors);
  });

  it('place a glossary word by its gloss: a regex is nearer programming than cooking', () => {
    const vectors = loadWordVectors();
    const v = (word: string) => vectors.vector(word)!;
    expect(cosine(v('regex'), v('programming'))).toBeGreaterThan(cosine(v('regex'), v('cooking')));
    expect(cosine(v('login'), v('password'))).toBeGreaterThan(cosine(v('login'), v('poem')));
    expect(cosine(v('ibuprofen'), v('medicine'))).toBeGreaterThan(cosine(v('ibuprofen'), v('car')));
  });

  it('hold every word of src/embedded/scripts/word-glossary (rebuild them after editing it), each after the 50,000', () => {
    const vectors = loadWordVectors();
    const folder = fileURLToPath(
      new URL('../../../src/embedded/scripts/word-glossary/', import.meta.url),
    );
    const words = readdirSync(folder)
      .filter((file) => file.endsWith('.txt'))
      .flatMap((file) => readFileSync(join(folder, file), 'utf8').split('\n'))
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(words.length).toBeGreaterThan(5000);
    const misplaced = words
      .map((line) => /^([a-z]{2,}): [a-z]+(?: [a-z]+)+$/.exec(line)?.[1] ?? `malformed: ${line}`)
      .filter((word) => vectors.rowOf(word) < 50_000);
    expect(misplaced).toEqual([]);
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

  it('reads what src/embedded/scripts/build-word-vectors.mjs writes, in frequency order, letters-only words', () => {
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
    const noGlossary = join(dir, 'no-glossary');
    mkdirSync(noGlossary);
    const build = (file: string, glossary = noGlossary) =>
      execFileSync(process.execPath, [
        script,
        '--source',
        source,
        '--words',
        '4',
        '--out',
        file,
        '--glossary',
        glossary,
      ]);
    build(out);
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
    build(again);
    expect(readFileSync(again).equals(readFileSync(out))).toBe(true);

    // Version 2 stores the rows' mean; a version 1 file (without it) has it computed, the same.
    const stored = readFileSync(out);
    const versionOne = Buffer.from(stored.subarray(0, stored.length - 8 * 3));
    versionOne.writeUInt32LE(1, 8);
    expect(Array.from(WordVectors.parse(versionOne).meanVector())).toEqual(
      Array.from(loaded.meanVector()),
    );
    expect(loaded.meanVector()[0]).toBeCloseTo((0.5 + 2 + 0 + 1.9) / 4, 2);

    // The glossary: rows after the words, each the mean of its known gloss words at their mean
    // length; a known word, or one with fewer than 2 known gloss words, is left out.
    const glossary = join(dir, 'glossary');
    mkdirSync(glossary);
    writeFileSync(
      join(glossary, 'a.txt'),
      '# pets\nkitty: cat dog\ndog: cat the\nstripes: zebra cat\n',
    );
    writeFileSync(join(glossary, 'b.txt'), 'kitty: the\n');
    const glossed = join(dir, 'glossed.bin');
    build(glossed, glossary);
    const withGlossary = loadWordVectors(glossed);
    expect(withGlossary.size).toBe(5);
    expect(withGlossary.rowOf('kitty')).toBe(4);
    expect(withGlossary.rowOf('stripes')).toBe(-1);
    const gloss = ['cat', 'dog', 'the'].map((w) => rows[w]!);
    const mean = [0, 1, 2].map((d) => gloss.reduce((sum, row) => sum + row[d]!, 0) / 3);
    const scale = gloss.reduce((sum, row) => sum + Math.hypot(...row), 0) / 3 / Math.hypot(...mean);
    const kitty = Array.from(withGlossary.vector('kitty')!);
    kitty.forEach((value, d) => expect(value).toBeCloseTo(mean[d]! * scale, 1));
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

  it('finds src/embedded/assets/<file> under the nearest ancestor of the calling module (dist/ and src/ alike), and says so when none has it', () => {
    const assets = join(dir, 'pkg', 'src', 'embedded', 'assets');
    mkdirSync(assets, { recursive: true });
    mkdirSync(join(dir, 'pkg', 'dist', 'embedded'), { recursive: true });
    writeFileSync(join(assets, 'v.bin'), '');
    const fromDist = pathToFileURL(join(dir, 'pkg', 'dist', 'embedded', 'word-vectors.js')).href;
    const fromSrc = pathToFileURL(join(dir, 'pkg', 'src', 'embedded', 'word-vectors.ts')).href;
    expect(findAsset('v.bin', fromDist)).toBe(join(assets, 'v.bin'));
    expect(findAsset('v.bin', fromSrc)).toBe(join(assets, 'v.bin'));
    expect(() => findAsset('nowhere.bin', fromDist)).toThrow(
      /cannot find src\/embedded\/assets\/nowhere\.bin/,
    );
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
    expect(() => WordVectors.fromEntries([['a\nb', [1]]])).toThrow(
      /a\nb' is empty or has a line break/,
    );
    expect(() => WordVectors.fromEntries([['', [1]]])).toThrow(/'' is empty/);
  });
});
