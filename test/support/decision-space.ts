// The decision model's feature space as several specs need it: the shipped vectors in the default
// word weighting, without the complexity prior (scripts/built-decision-space.mjs is the same for
// the asset generators).
import {
  DEFAULT_FEATURE_WEIGHTS,
  FeatureSpace,
  type FeatureWeights,
} from '../../src/core/decision/models/decision-features.js';
import type { IntentMetric } from '../../src/core/decision/models/intent-metric.js';
import {
  DEFAULT_WORD_WEIGHTING,
  sharedEmbedder,
} from '../../src/core/decision/models/word-vector-embedder.js';
import { loadWordVectors } from '../../src/core/decision/models/word-vectors.js';

export const vectors = loadWordVectors();
export const embedder = sharedEmbedder(vectors, DEFAULT_WORD_WEIGHTING);

export const featureSpace = (
  weights: Partial<FeatureWeights> = {},
  metric?: IntentMetric,
): FeatureSpace =>
  new FeatureSpace(embedder, { ...DEFAULT_FEATURE_WEIGHTS, ...weights }, undefined, metric);
