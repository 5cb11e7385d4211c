// The decision model's feature space as several specs need it: the shipped vectors in the default
// word weighting, without the complexity prior (src/embedded/scripts/built-decision-space.mjs is the same for
// the asset generators).
import {
  DEFAULT_FEATURE_WEIGHTS,
  FeatureSpace,
  type FeatureWeights,
} from '../../src/embedded/decision-features.js';
import type { IntentMetric } from '../../src/embedded/intent-metric.js';
import { DEFAULT_WORD_WEIGHTING, sharedEmbedder } from '../../src/embedded/word-vector-embedder.js';
import { loadWordVectors } from '../../src/embedded/word-vectors.js';

export const vectors = loadWordVectors();
export const embedder = sharedEmbedder(vectors, DEFAULT_WORD_WEIGHTING);

export const featureSpace = (
  weights: Partial<FeatureWeights> = {},
  metric?: IntentMetric,
): FeatureSpace =>
  new FeatureSpace(embedder, { ...DEFAULT_FEATURE_WEIGHTS, ...weights }, undefined, metric);
