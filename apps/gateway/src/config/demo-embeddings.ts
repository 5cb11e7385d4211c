import { type EmbeddingModel } from 'nest-model-router/core';
import { WordVectorEmbeddingModel } from 'nest-model-router/embedded';

export const DEMO_EMBEDDING = 'demo-embedding';

/**
 * `demo-embedding`: offline embeddings from the word vectors the decision model already ships,
 * so the zero-configuration gateway answers `/v1/embeddings` too. The vectors load on first use.
 */
export function demoEmbeddings(): Record<string, EmbeddingModel> {
  return { [DEMO_EMBEDDING]: new WordVectorEmbeddingModel({ name: DEMO_EMBEDDING }) };
}
