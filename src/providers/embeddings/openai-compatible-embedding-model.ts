import type {
  EmbedOptions,
  EmbeddingModel,
  EmbeddingResult,
} from '../../core/embeddings/embedding-model.js';
import {
  openAiCompatibleEmbeddings,
  type OpenAiCompatibleEmbeddingsOptions,
} from './openai-compatible-embed.js';

/**
 * An EmbeddingModel on any OpenAI-compatible `/embeddings` endpoint (OpenAI, Ollama, vLLM…),
 * with the same key-free errors as the embedding decision model's client.
 */
export class OpenAiCompatibleEmbeddingModel implements EmbeddingModel {
  private readonly client: (texts: string[], call: EmbedOptions) => Promise<EmbeddingResult>;

  constructor(options: OpenAiCompatibleEmbeddingsOptions) {
    this.client = openAiCompatibleEmbeddings(options);
  }

  embed(texts: string[], options: EmbedOptions = {}): Promise<EmbeddingResult> {
    return this.client(texts, options);
  }
}
