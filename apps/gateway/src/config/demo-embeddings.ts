import { type EmbeddingModel, WordVectorEmbeddingModel } from 'nest-model-router';

/**
 * `demo-embedding`: offline embeddings from the word vectors the decision model already ships,
 * so the zero-configuration gateway answers `/v1/embeddings` too. The vectors load on first use.
 */
export function demoEmbeddings(): Record<string, EmbeddingModel> {
  return { 'demo-embedding': new WordVectorEmbeddingModel({ name: 'demo-embedding' }) };
}
