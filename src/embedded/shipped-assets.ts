import { readFileSync } from 'node:fs';
import type { WordWeighting } from './word-vector-embedder.js';
import { findAsset, type WordVectors } from './word-vectors.js';

/**
 * What the precomputed assets (the complexity prior, the intent metric, the archetype means)
 * share: each was computed in one space — the shipped vectors, named by a stamp, and a word
 * weighting — and is used only in that space.
 */
export interface VectorsStamp {
  dimensions: number;
  words: number;
  fingerprint: number;
}

/** A number that changes when the vectors do: a few rows, summed with position weights. */
export function vectorFingerprint(vectors: WordVectors): number {
  let sum = 0;
  for (const word of ['the', 'model', 'question', 'simple']) {
    const vector = vectors.vector(word);
    if (!vector) return Number.NaN;
    vector.forEach((value, d) => (sum += value * ((d % 7) + 1)));
  }
  return Math.round(sum * 1e6) / 1e6;
}

/** Whether `vectors` are those the stamp names. */
export function stampMatches(stamp: VectorsStamp, vectors: WordVectors): boolean {
  return (
    vectors.dimensions === stamp.dimensions &&
    vectors.size === stamp.words &&
    Math.abs(vectorFingerprint(vectors) - stamp.fingerprint) <= 1e-6
  );
}

/** Whether two word weightings give the same topic vectors. */
export function sameWeighting(a: WordWeighting, b: WordWeighting): boolean {
  return (Object.keys(a) as (keyof WordWeighting)[]).every((key) => a[key] === b[key]);
}

const read = new Map<string, unknown>();

/** A JSON file of src/embedded/assets/, read once per process; undefined when it is missing or unreadable. */
export function readShippedAsset<T>(file: string): T | undefined {
  if (!read.has(file)) {
    try {
      read.set(file, JSON.parse(readFileSync(findAsset(file), 'utf8')));
    } catch {
      read.set(file, undefined);
    }
  }
  return read.get(file) as T | undefined;
}
