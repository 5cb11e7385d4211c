import { WORD_CLASSES } from './word-classes.js';
import { FOLLOW_UP_WORDS, STOP_WORDS } from './stop-words.js';
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

/** What one pass over a text's words yields. */
export interface TextProfile {
  /** The weighted mean of `embed()`: what the text is about. */
  topic: Float64Array;
  /**
   * The plain mean of all its known words, stop words included, centred like `topic`: how it is
   * said ("what is…", "could you…", "prove that…"), which tells greetings from questions from tasks.
   */
  style: Float64Array;
  /** Words of the text (tokens), and how many of them are known. */
  words: number;
  known: number;
  /** Frequency-damped mass of the known words that are neither stop nor follow-up words. */
  topicality: number;
  /** Per class of WORD_CLASSES (word-classes.ts), how many of its words belong to it. */
  classCounts: Uint16Array;
}

/** Embeds a text as the weighted mean of the vectors of its known words; unknown words are ignored. */
export class WordVectorEmbedder {
  readonly dimensions: number;
  private readonly weights: Float32Array;
  private readonly mean: Float64Array;
  /** Per row: the word's share of topicality (0 for stop and follow-up words). */
  private readonly topical: Float32Array;
  /** Per row: the bits of the word classes it belongs to (bit i: WORD_CLASSES[i]). */
  private readonly classBits: Uint8Array;

  constructor(
    readonly vectors: WordVectors,
    weighting: WordWeighting = DEFAULT_WORD_WEIGHTING,
  ) {
    this.dimensions = vectors.dimensions;
    this.weights = new Float32Array(vectors.size);
    for (let row = 0; row < vectors.size; row++) {
      this.weights[row] = (row + 1) / (row + 1 + weighting.frequencyDamping);
    }
    this.topical = new Float32Array(vectors.size);
    for (let row = 0; row < vectors.size; row++) this.topical[row] = (row + 1) / (row + 301);
    for (const word of STOP_WORDS) {
      const row = vectors.rowOf(word);
      if (row >= 0) {
        this.weights[row]! *= weighting.stopWordWeight;
        this.topical[row] = 0;
      }
    }
    for (const word of FOLLOW_UP_WORDS) {
      const row = vectors.rowOf(word);
      if (row >= 0) this.topical[row] = 0;
    }
    this.classBits = new Uint8Array(vectors.size);
    WORD_CLASSES.forEach(({ words }, i) => {
      for (const word of words) {
        const row = vectors.rowOf(word);
        if (row >= 0) this.classBits[row]! |= 1 << i;
      }
    });
    this.mean =
      weighting.centre && vectors.size > 1
        ? vectors.meanVector()
        : new Float64Array(this.dimensions);
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

  /** `embed()` and the rest of the profile in one pass over the words. */
  profile(text: string): TextProfile {
    const dims = this.dimensions;
    const topic = new Float64Array(dims);
    const style = new Float64Array(dims);
    const tokens = tokenize(text);
    let total = 0;
    let known = 0;
    let topicality = 0;
    const classCounts = new Uint16Array(WORD_CLASSES.length);
    for (let t = 0; t < tokens.length; t++) {
      const token = tokens[t]!;
      const row = this.vectors.rowOf(token);
      if (row < 0) continue;
      const weight = this.weights[row]!;
      this.vectors.addRow(topic, row, weight);
      this.vectors.addRow(style, row, 1);
      total += weight;
      known++;
      topicality += this.topical[row]!;
      const bits = this.classBits[row]!;
      if (bits !== 0) addClasses(classCounts, bits, token, tokens[t - 1]);
    }
    if (known > 0) {
      for (let d = 0; d < dims; d++) {
        topic[d] = (total > 0 ? topic[d]! / total : 0) - this.mean[d]!;
        style[d] = style[d]! / known - this.mean[d]!;
      }
    }
    return { topic, style, words: tokens.length, known, topicality, classCounts };
  }

  /** How many of the text's words are known (0 means the text cannot be placed). */
  knownWords(text: string): number {
    return tokenize(text).filter((token) => this.vectors.rowOf(token) >= 0).length;
  }
}

function addClasses(counts: Uint16Array, bits: number, word: string, before?: string): void {
  for (let i = 0; i < counts.length; i++) {
    if (!(bits & (1 << i))) continue;
    const { ambiguous, cues } = WORD_CLASSES[i]!;
    if (ambiguous?.has(word) && !(before !== undefined && cues?.has(before))) continue;
    counts[i]!++;
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
