import { COMPLEXITY_PRIOR_WEIGHTS } from './complexity-prior-weights.js';
import { stampMatches } from './shipped-assets.js';
import { SURFACE_FEATURE_COUNT } from './surface-features.js';
import type { WordVectors } from './word-vectors.js';

/**
 * A fixed linear model, fitted by src/embedded/scripts/build-complexity-prior.mjs on the project's own labelled
 * corpus (src/embedded/scripts/complexity-corpus.mjs), that scores how much a text asks for a strong model:
 * several steps, analysis, long or structured writing, non-trivial code, proofs. It is one more
 * feature for the classifier of each question, whose weight that classifier learns from the
 * options' own descriptions and examples: a simple/complex split leans on it, a topic split
 * does not. It exists only for the shipped vectors (its weights are in their space).
 */
export interface ComplexityPrior {
  /** Over unit topic ‖ unit style ‖ surface features ‖ 1. */
  readonly weights: Float64Array;
}

/** The shipped prior when `vectors` are the vectors it was fitted for, otherwise undefined. */
export function complexityPriorFor(vectors: WordVectors): ComplexityPrior | undefined {
  const { weights, ...stamp } = COMPLEXITY_PRIOR_WEIGHTS;
  if (!stampMatches(stamp, vectors)) return undefined;
  if (weights.length !== 2 * stamp.dimensions + SURFACE_FEATURE_COUNT + 1) return undefined;
  return { weights: Float64Array.from(weights) };
}

/**
 * The score in −1…1 (tanh of half the logit, i.e. 2p − 1) for a feature vector laid out as in
 * decision-features.ts, read before the blocks are scaled.
 */
export function complexityScore(prior: ComplexityPrior, features: Float64Array): number {
  const w = prior.weights;
  const n = w.length - 1;
  let z = w[n]!;
  for (let i = 0; i < n; i++) z += w[i]! * features[i]!;
  return Math.tanh(z / 2);
}
