// nest-model-router/embedded: the offline decision model on word vectors shipped with the package
// (src/embedded/assets), its tuning knobs, and the word-vector embedding model built on the same
// vectors. Framework-free like nest-model-router/core, which it builds on. The root entry
// re-exports only EmbeddedVectorDecisionModel.
export {
  EmbeddedVectorDecisionModel,
  EMBEDDED_VECTOR_DEFAULTS,
  type EmbeddedVectorDecisionModelOptions,
} from './embedded-vector-decision-model.js';
export { WordVectors, loadWordVectors, DEFAULT_WORD_VECTORS_FILE } from './word-vectors.js';
export type { WordWeighting } from './word-vector-embedder.js';
export type { FeatureWeights } from './decision-features.js';
export type { PerQuestionKind } from './option-classifier.js';
export {
  WordVectorEmbeddingModel,
  type WordVectorEmbeddingModelOptions,
} from './word-vector-embedding-model.js';
