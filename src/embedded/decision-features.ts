import { complexityScore, type ComplexityPrior } from './complexity-prior.js';
import { splitInstruction } from './instruction-payload.js';
import { applyIntentMetric, type IntentMetric } from './intent-metric.js';
import { SURFACE_FEATURE_COUNT, surfaceFeatures } from './surface-features.js';
import type { TextProfile, WordVectorEmbedder } from './word-vector-embedder.js';
import { WORD_CLASSES } from './word-classes.js';

/** How much each block of features counts in the classifier (the topic vector counts 1). */
export interface FeatureWeights {
  /** The plain mean of all words (how a text is said). Default 2. */
  style: number;
  /** Length, digits, formulas, code, quotes… (see surface-features.ts). Default 2. */
  surface: number;
  /**
   * The shipped simple-vs-complex score (see complexity-prior.ts). Default 1 (simple and complex
   * routes also borrow the prior's corpus itself, intent-corpus.ts).
   */
  complexity: number;
  /** The share of words that judge (word-classes.ts): tells feedback from its subject. Default 2. */
  opinion: number;
  /** Whether a language is named (word-classes.ts): tells translation from rewording. Default 2. */
  language: number;
}

export const DEFAULT_FEATURE_WEIGHTS: Readonly<FeatureWeights> = {
  style: 2,
  surface: 2,
  complexity: 1,
  opinion: 2,
  language: 2,
};

/** A text (or a conversation) as the decision model sees it. */
export interface DecisionFeatures {
  /** The classifier's input: topic ‖ style ‖ surface ‖ complexity ‖ word classes ‖ 1. */
  readonly vector: Float64Array;
  /** The unit topic vector, for the cosine similarity to descriptions and examples. */
  readonly topic: Float64Array;
  /** No known word: nothing to decide on. */
  readonly empty: boolean;
}

/** One message of an input: its text, its weight, and its profile (for topicality). */
export interface WeightedProfile {
  text: string;
  weight: number;
  profile: TextProfile;
  /** Whether the text is a request plus a pasted text, when the caller knows; else found here. */
  payload?: boolean;
}

function addUnit(target: Float64Array, offset: number, source: Float64Array, weight: number) {
  let norm = 0;
  for (let i = 0; i < source.length; i++) norm += source[i]! * source[i]!;
  if (norm === 0) return;
  const factor = weight / Math.sqrt(norm);
  for (let i = 0; i < source.length; i++) target[offset + i]! += factor * source[i]!;
}

function normalizeBlock(vector: Float64Array, offset: number, length: number, scale: number) {
  let norm = 0;
  for (let i = offset; i < offset + length; i++) norm += vector[i]! * vector[i]!;
  if (norm === 0) return;
  const factor = scale / Math.sqrt(norm);
  for (let i = offset; i < offset + length; i++) vector[i]! *= factor;
}

/**
 * Turns texts into feature vectors. Layout: [0, D) unit topic, [D, 2D) unit style × weight,
 * then the surface features × weight, the complexity score × weight, each word class's share
 * × weight (word-classes.ts), and a constant 1 (bias).
 */
export class FeatureSpace {
  readonly dimensions: number;
  readonly size: number;

  constructor(
    readonly embedder: WordVectorEmbedder,
    private readonly weights: FeatureWeights,
    private readonly prior: ComplexityPrior | undefined,
    /** The topic vectors' within-class normalization (intent-metric.ts), if any. */
    readonly metric?: IntentMetric,
  ) {
    this.dimensions = embedder.dimensions;
    this.size = 2 * this.dimensions + SURFACE_FEATURE_COUNT + WORD_CLASSES.length + 2;
  }

  ofText(text: string): DecisionFeatures {
    return this.combine([{ text, weight: 1, profile: this.embedder.profile(text) }]);
  }

  /**
   * Several messages as one: topic and style are weighted sums of the messages' unit vectors,
   * surface features and the word classes' shares weighted means, and the complexity is scored on
   * the result.
   */
  combine(parts: readonly WeightedProfile[]): DecisionFeatures {
    const dims = this.dimensions;
    const vector = new Float64Array(this.size);
    const surface = 2 * dims;
    const scratch = new Float64Array(SURFACE_FEATURE_COUNT);
    let total = 0;
    const classes = new Float64Array(WORD_CLASSES.length);
    let empty = true;
    for (const { text, weight, profile, payload } of parts) {
      if (weight <= 0) continue;
      if (profile.known > 0) empty = false;
      addUnit(vector, 0, profile.topic, weight);
      addUnit(vector, dims, profile.style, weight);
      const pasted = payload ?? splitInstruction(text) !== undefined;
      surfaceFeatures(text, profile.words, profile.known, pasted, scratch, 0);
      for (let k = 0; k < SURFACE_FEATURE_COUNT; k++) vector[surface + k]! += weight * scratch[k]!;
      WORD_CLASSES.forEach(({ saturation }, c) => {
        classes[c]! += weight * Math.min(1, profile.classCounts[c]! / saturation);
      });
      total += weight;
    }
    normalizeBlock(vector, 0, dims, 1);
    normalizeBlock(vector, dims, dims, 1);
    if (total > 0) for (let k = 0; k < SURFACE_FEATURE_COUNT; k++) vector[surface + k]! /= total;
    const complexity = this.prior ? complexityScore(this.prior, vector) : 0;
    // After the prior, which was fitted on the topic vectors as they were.
    if (this.metric) applyIntentMetric(this.metric, vector.subarray(0, dims));
    // The prior reads the unweighted blocks; only then are they scaled for the classifier.
    for (let d = dims; d < 2 * dims; d++) vector[d]! *= this.weights.style;
    for (let k = 0; k < SURFACE_FEATURE_COUNT; k++) vector[surface + k]! *= this.weights.surface;
    const after = surface + SURFACE_FEATURE_COUNT;
    vector[after] = this.weights.complexity * complexity;
    if (total > 0) {
      WORD_CLASSES.forEach(({ name }, c) => {
        vector[after + 1 + c] = (this.weights[name] * classes[c]!) / total;
      });
    }
    vector[this.size - 1] = 1;
    return { vector, topic: vector.subarray(0, dims), empty };
  }
}
