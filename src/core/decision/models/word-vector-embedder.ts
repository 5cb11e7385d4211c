import { STOP_WORDS } from './stop-words.js';
import { tokenize } from './tokenize.js';
import type { WordVectors } from './word-vectors.js';

export interface WordWeighting {
  /**
   * Frequent words say less: a word of frequency rank r weighs (r + 1) / (r + 1 + damping), the
   * smooth inverse frequency weighting of Arora et al. (2017) with Zipf's law standing in for word
   * counts. 0 turns it off. Default 300.
   */
  frequencyDamping: number;
  /** Extra factor for stop words ("the", "how", "you"). Default 0.1. */
  stopWordWeight: number;
  /**
   * Subtract the vocabulary's mean vector from every text vector. GloVe vectors share a common
   * direction that makes unrelated texts look alike; removing it spreads the cosines. Default true.
   */
  centre: boolean;
}

export const DEFAULT_WORD_WEIGHTING: Readonly<WordWeighting> = {
  frequencyDamping: 300,
  stopWordWeight: 0.1,
  centre: true,
};

/** Embeds a text as the weighted mean of the vectors of its known words; unknown words are ignored. */
export class WordVectorEmbedder {
  readonly dimensions: number;
  private readonly weights: Float32Array;
  private readonly mean: Float64Array;

  constructor(
    private readonly vectors: WordVectors,
    weighting: WordWeighting = DEFAULT_WORD_WEIGHTING,
  ) {
    this.dimensions = vectors.dimensions;
    this.weights = new Float32Array(vectors.size);
    for (let row = 0; row < vectors.size; row++) {
      this.weights[row] = (row + 1) / (row + 1 + weighting.frequencyDamping);
    }
    for (const word of STOP_WORDS) {
      const row = vectors.rowOf(word);
      if (row >= 0) this.weights[row]! *= weighting.stopWordWeight;
    }
    this.mean = new Float64Array(this.dimensions);
    if (weighting.centre && vectors.size > 1) {
      for (let row = 0; row < vectors.size; row++) vectors.addRow(this.mean, row, 1 / vectors.size);
    }
  }

  /** All zeros when no word of the text is known. */
  embed(text: string): Float64Array {
    const out = new Float64Array(this.dimensions);
    let total = 0;
    for (const token of tokenize(text)) {
      const row = this.vectors.rowOf(token);
      if (row < 0) continue;
      const weight = this.weights[row]!;
      this.vectors.addRow(out, row, weight);
      total += weight;
    }
    if (total === 0) return out;
    for (let d = 0; d < this.dimensions; d++) out[d] = out[d]! / total - this.mean[d]!;
    return out;
  }

  /** How many of the text's words are known (0 means the text cannot be placed). */
  knownWords(text: string): number {
    return tokenize(text).filter((token) => this.vectors.rowOf(token) >= 0).length;
  }
}

const embedders = new WeakMap<WordVectors, Map<string, WordVectorEmbedder>>();

/**
 * One embedder per vectors and weighting, shared by every model instance: building one walks the
 * whole vocabulary (weights and mean vector), which is worth doing once per process.
 */
export function sharedEmbedder(vectors: WordVectors, weighting: WordWeighting): WordVectorEmbedder {
  let byWeighting = embedders.get(vectors);
  if (!byWeighting) {
    byWeighting = new Map();
    embedders.set(vectors, byWeighting);
  }
  const key = `${weighting.frequencyDamping}|${weighting.stopWordWeight}|${weighting.centre}`;
  let embedder = byWeighting.get(key);
  if (!embedder) {
    embedder = new WordVectorEmbedder(vectors, weighting);
    byWeighting.set(key, embedder);
  }
  return embedder;
}
