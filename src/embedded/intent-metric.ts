import {
  readShippedAsset,
  sameWeighting,
  stampMatches,
  type VectorsStamp,
} from './shipped-assets.js';
import { dotAt } from '../core/decision/models/similarity-scoring.js';
import type { WordWeighting } from './word-vector-embedder.js';
import type { WordVectors } from './word-vectors.js';

/**
 * Within-class covariance normalization of the topic vectors (Hatch, Kajarekar and Stolcke,
 * 2006). Messages of one intent-corpus archetype differ in ways that say nothing about their
 * intent: the subject of a pasted text, the product a question is about, the wording. Those
 * directions carry most of their spread; the directions that tell archetypes apart carry little
 * of it. Scaling each direction by (its within-archetype variance + the mean variance)^(−s/2)
 * shrinks the first and stretches the second, so cosines (the similarity score, the archetype
 * matching) and the classifier both see more of what a message asks and less of what it
 * mentions. `s` is the strength (0: off; 1: full whitening, shrunk towards the identity by the
 * mean variance).
 *
 * The spread is measured once, by `src/embedded/scripts/build-intent-metric.mjs`, on the shipped corpus's
 * topic archetypes (not the simple/complex ones, which span every topic), for the shipped vectors
 * and the default word weighting: `src/embedded/assets/intent-metric.json` holds its eigenvalues and
 * eigenvectors, and the transform is used only in that space.
 */
export const DEFAULT_INTENT_METRIC_FILE = 'intent-metric.json';

/** The transform of one strength: symmetric, `dimensions` × `dimensions`, row-major. */
export interface IntentMetric {
  readonly strength: number;
  readonly matrix: Float64Array;
}

export interface IntentMetricFile {
  vectors: VectorsStamp;
  weighting: WordWeighting;
  /** Eigenvalues of the within-archetype covariance of the unit topic vectors. */
  values: number[];
  /** The matching eigenvectors, one row each. */
  eigenvectors: number[][];
}

const built = new WeakMap<WordVectors, Map<number, IntentMetric>>();

/**
 * The shipped transform at `strength` when `vectors` and `weighting` are those it was measured
 * in, otherwise (or at strength 0) undefined. One object per vectors and strength, shared by
 * every model: it also identifies the topic space (archetype-matcher.ts).
 */
export function intentMetricFor(
  vectors: WordVectors,
  weighting: WordWeighting,
  strength: number,
): IntentMetric | undefined {
  if (strength <= 0) return undefined;
  const file = readShippedAsset<IntentMetricFile>(DEFAULT_INTENT_METRIC_FILE);
  if (!file || !stampMatches(file.vectors, vectors) || !sameWeighting(file.weighting, weighting)) {
    return undefined;
  }
  let byStrength = built.get(vectors);
  if (!byStrength) built.set(vectors, (byStrength = new Map()));
  let metric = byStrength.get(strength);
  if (!metric) {
    metric = { strength, matrix: transform(file, strength) };
    byStrength.set(strength, metric);
  }
  return metric;
}

/** `topic` ← the unit vector along metric × topic (all zeros stays all zeros). */
export function applyIntentMetric(metric: IntentMetric, topic: Float64Array): void {
  const dims = topic.length;
  const { matrix } = metric;
  const out = new Float64Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    const sum = dotAt(topic, matrix, i * dims, dims);
    out[i] = sum;
    norm += sum * sum;
  }
  if (norm === 0) return;
  const inverse = 1 / Math.sqrt(norm);
  for (let i = 0; i < dims; i++) topic[i] = out[i]! * inverse;
}

/** V diag((λ + mean λ)^(−s/2)) Vᵀ: its upper triangle, mirrored (a tenth of the load otherwise). */
function transform(file: IntentMetricFile, strength: number): Float64Array {
  const dims = file.values.length;
  const shrinkage = file.values.reduce((sum, value) => sum + value, 0) / dims;
  const scale = file.values.map((value) => (Math.max(0, value) + shrinkage) ** (-strength / 2));
  const matrix = new Float64Array(dims * dims);
  const v = new Float64Array(dims);
  for (let k = 0; k < dims; k++) {
    v.set(file.eigenvectors[k]!);
    for (let i = 0; i < dims; i++) {
      const factor = scale[k]! * v[i]!;
      for (let j = i; j < dims; j++) matrix[i * dims + j]! += factor * v[j]!;
    }
  }
  for (let i = 1; i < dims; i++) {
    for (let j = 0; j < i; j++) matrix[i * dims + j] = matrix[j * dims + i]!;
  }
  return matrix;
}
