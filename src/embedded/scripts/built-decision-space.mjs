// What the asset generators (build-complexity-prior, build-intent-metric, build-archetype-means)
// share: the decision model's modules as `npx tsc -p tsconfig.bench.json` built them, the shipped
// word vectors, and their feature space in the default word weighting, so that each asset is
// computed with the functions the model itself uses.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A module of build/src/embedded/. */
export const modelModule = (file) => import(join(root, 'build', 'src', 'embedded', file));

const { loadWordVectors } = await modelModule('word-vectors.js');
const { sharedEmbedder, DEFAULT_WORD_WEIGHTING } = await modelModule('word-vector-embedder.js');
const { FeatureSpace, DEFAULT_FEATURE_WEIGHTS } = await modelModule('decision-features.js');
const { vectorFingerprint } = await modelModule('shipped-assets.js');

export { DEFAULT_FEATURE_WEIGHTS, DEFAULT_WORD_WEIGHTING };
export const vectors = loadWordVectors();

/** How an asset names the vectors it was computed for (the model checks it before use). */
export const vectorsStamp = () => ({
  dimensions: vectors.dimensions,
  words: vectors.size,
  fingerprint: vectorFingerprint(vectors),
});

/** The feature space of the shipped vectors in the default weighting; no complexity prior. */
export const featureSpace = (weights = DEFAULT_FEATURE_WEIGHTS, metric = undefined) =>
  new FeatureSpace(sharedEmbedder(vectors, DEFAULT_WORD_WEIGHTING), weights, undefined, metric);
