import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { WordIndex } from './word-index.js';

/** The vectors shipped in `src/embedded/assets/`, built by `src/embedded/scripts/build-word-vectors.mjs` (see there for the format). */
export const DEFAULT_WORD_VECTORS_FILE = 'glove-6b-50k-glossary-100d-int8.bin';

const MAGIC = 'NMRWVEC1';
const HEADER_BYTES = 24;

/**
 * Int8-quantized word vectors, one float32 scale per row, words in frequency order (row index =
 * frequency rank). Rows are dequantized on the fly while accumulating, so the whole table stays
 * at about 5 MB in memory.
 */
export class WordVectors {
  readonly size: number;
  private mean: Float64Array | undefined;

  private constructor(
    private readonly rows: WordIndex,
    readonly dimensions: number,
    private readonly scales: Float32Array,
    private readonly components: Int8Array,
  ) {
    this.size = rows.size;
  }

  /** Parses the binary format; `source` names the file in error messages. */
  static parse(bytes: Uint8Array, source = 'word vectors'): WordVectors {
    const invalid = (what: string) =>
      new InvalidConfigurationException(
        `${source} is not a word vector file (${what}); build one with src/embedded/scripts/build-word-vectors.mjs`,
      );
    if (bytes.byteLength < HEADER_BYTES) throw invalid('too short');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const magic = new TextDecoder('ascii').decode(bytes.subarray(0, 8));
    if (magic !== MAGIC) throw invalid(`magic '${magic}'`);
    const version = view.getUint32(8, true);
    if (version !== 1 && version !== 2) throw invalid(`unsupported version ${version}`);
    const count = view.getUint32(12, true);
    const dimensions = view.getUint32(16, true);
    const wordBytes = view.getUint32(20, true);
    const scalesOffset = HEADER_BYTES + wordBytes + ((4 - ((HEADER_BYTES + wordBytes) % 4)) % 4);
    const dataOffset = scalesOffset + 4 * count;
    const meanOffset = dataOffset + count * dimensions;
    const expected = meanOffset + (version === 2 ? 8 * dimensions : 0);
    if (dimensions === 0 || bytes.byteLength !== expected) {
      throw invalid(`expected ${expected} bytes, found ${bytes.byteLength}`);
    }
    const text = new TextDecoder('utf-8').decode(
      bytes.subarray(HEADER_BYTES, HEADER_BYTES + wordBytes),
    );
    const index = new WordIndex(text);
    if (index.size !== count) throw invalid(`${index.size} words for ${count} rows`);
    // Copies, so that the rows are aligned whatever the buffer's offset (Buffer pools are not).
    const scales = new Float32Array(count);
    for (let row = 0; row < count; row++)
      scales[row] = view.getFloat32(scalesOffset + 4 * row, true);
    const components = new Int8Array(count * dimensions);
    components.set(new Int8Array(bytes.buffer, bytes.byteOffset + dataOffset, count * dimensions));
    const vectors = new WordVectors(index, dimensions, scales, components);
    // Version 2 stores the mean of the rows, summed as meanVector() would: walking 5.5 million
    // components was a fifth of the load.
    if (version === 2) {
      const mean = new Float64Array(dimensions);
      for (let d = 0; d < dimensions; d++) mean[d] = view.getFloat64(meanOffset + 8 * d, true);
      vectors.mean = mean;
    }
    return vectors;
  }

  /** Builds vectors from plain arrays (tests, custom vocabularies); quantized like the file. */
  static fromEntries(entries: Iterable<readonly [string, readonly number[]]>): WordVectors {
    const list = [...entries];
    const dimensions = list[0]?.[1].length ?? 0;
    if (dimensions === 0)
      throw new InvalidConfigurationException(
        'word vectors need at least one word with one dimension',
      );
    const scales = new Float32Array(list.length);
    const components = new Int8Array(list.length * dimensions);
    list.forEach(([word, vector], row) => {
      if (vector.length !== dimensions) {
        throw new InvalidConfigurationException(
          `word vector of '${word}' has ${vector.length} dimensions, expected ${dimensions}`,
        );
      }
      const maxAbs = Math.max(...vector.map(Math.abs));
      const scale = Math.fround(maxAbs > 0 ? maxAbs / 127 : 1);
      scales[row] = scale;
      vector.forEach((value, d) => (components[row * dimensions + d] = Math.round(value / scale)));
    });
    const words = list.map(([word]) => word);
    // The index reads the words one per line: an empty word or a line break would shift the rows.
    const unlisted = words.find((word) => word === '' || word.includes('\n'));
    if (unlisted !== undefined)
      throw new InvalidConfigurationException(
        `word vector word '${unlisted}' is empty or has a line break`,
      );
    return new WordVectors(new WordIndex(words.join('\n')), dimensions, scales, components);
  }

  /** The row (= frequency rank) of a word, or -1 when it is unknown. */
  rowOf(word: string): number {
    return this.rows.rowOf(word);
  }

  /** Adds `weight` × the row's vector into `target`. */
  addRow(target: Float64Array, row: number, weight: number): void {
    const dims = this.dimensions;
    const base = row * dims;
    const factor = weight * this.scales[row]!;
    const components = this.components;
    for (let d = 0; d < dims; d++) target[d]! += factor * components[base + d]!;
  }

  /** The dequantized vector of a word, or undefined. */
  vector(word: string): Float64Array | undefined {
    const row = this.rowOf(word);
    if (row < 0) return undefined;
    const out = new Float64Array(this.dimensions);
    this.addRow(out, row, 1);
    return out;
  }

  /** The mean of all rows (computed once: it walks the whole table). */
  meanVector(): Float64Array {
    if (!this.mean) {
      const dims = this.dimensions;
      const sum = new Float64Array(dims);
      const components = this.components;
      for (let row = 0, base = 0; row < this.size; row++, base += dims) {
        const scale = this.scales[row]!;
        for (let d = 0; d < dims; d++) sum[d]! += scale * components[base + d]!;
      }
      for (let d = 0; d < dims; d++) sum[d]! /= Math.max(1, this.size);
      this.mean = sum;
    }
    return Float64Array.from(this.mean);
  }

  /** Euclidean length of a row, dequantized. */
  rowNorm(row: number): number {
    let sum = 0;
    const base = row * this.dimensions;
    for (let d = 0; d < this.dimensions; d++) sum += this.components[base + d]! ** 2;
    return Math.sqrt(sum) * this.scales[row]!;
  }
}

const cache = new Map<string, WordVectors>();

/**
 * Loads a vector file once per process and path (synchronously: it is about 5 MB and read once;
 * every later call is a map lookup). Without a path, the shipped file is found by walking up
 * from this module, which works from `src/` (Jest), `dist/` (the package) and `build/` (benchmarks).
 */
export function loadWordVectors(path?: string): WordVectors {
  const file = path === undefined ? findAsset(DEFAULT_WORD_VECTORS_FILE) : resolve(path);
  let vectors = cache.get(file);
  if (!vectors) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      throw new InvalidConfigurationException(
        `cannot read word vectors from '${file}' (vectorsPath): ${(error as Error).message}`,
        { cause: error },
      );
    }
    vectors = WordVectors.parse(bytes, file);
    cache.set(file, vectors);
  }
  return vectors;
}

/** Forgets loaded vectors (tests, or a process that wants the memory back). */
export function clearWordVectorCache(): void {
  cache.clear();
}

/**
 * Where the shipped assets live, relative to the package root: beside the model's source, and
 * published with the package (package.json `files`), so that one path serves src/ under Jest,
 * dist/ when installed, and build/ for the benchmarks.
 */
export const ASSETS_DIR = 'src/embedded/assets';

/** `<root>/src/embedded/assets/<file>` for the nearest ancestor `root` of this module that has it. */
export function findAsset(
  file: string,
  from: string = import.meta.url,
  option = 'vectorsPath',
): string {
  const start = dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, ASSETS_DIR, file);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) {
      throw new InvalidConfigurationException(
        `cannot find ${ASSETS_DIR}/${file} in ${start} or any parent directory; ` +
          `reinstall the package, or pass ${option}`,
      );
    }
  }
}
