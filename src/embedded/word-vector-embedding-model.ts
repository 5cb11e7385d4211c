import { throwIfAborted } from '../core/chat/abort.js';
import { ProviderException } from '../core/errors/provider-exception.js';
import { tokenize } from './tokenize.js';
import {
  DEFAULT_WORD_WEIGHTING,
  sharedEmbedder,
  type WordVectorEmbedder,
} from './word-vector-embedder.js';
import { loadWordVectors, type WordVectors } from './word-vectors.js';
import type {
  EmbedOptions,
  EmbeddingModel,
  EmbeddingResult,
} from '../core/embeddings/embedding-model.js';

export interface WordVectorEmbeddingModelOptions {
  /** The name it answers with; default `word-vectors`. */
  name?: string;
  /** Vectors other than the shipped GloVe file (tests). */
  vectors?: WordVectors;
}

/**
 * Offline embeddings from the shipped word vectors: the weighted mean the embedded decision model
 * uses, L2-normalised as OpenAI's are, so a dot product is the cosine. Unit-free and 100-wide; a
 * text with no known word gets the zero vector (it has no direction to compare). Fine for demos,
 * tests and rough similarity, not a substitute for a trained sentence embedder.
 */
export class WordVectorEmbeddingModel implements EmbeddingModel {
  private embedder?: WordVectorEmbedder;

  constructor(private readonly options: WordVectorEmbeddingModelOptions = {}) {}

  get name(): string {
    return this.options.name ?? 'word-vectors';
  }

  /** Reads the vectors now (≈25 ms) rather than on the first call. */
  preload(): this {
    this.load();
    return this;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<EmbeddingResult> {
    throwIfAborted(options.signal);
    const embedder = this.load();
    if (options.dimensions !== undefined && options.dimensions !== embedder.dimensions) {
      // the caller's mistake, as a provider would answer it: a 400 that is never failed over
      throw new ProviderException(
        `dimensions: '${this.name}' has ${embedder.dimensions}-dimensional vectors and cannot shorten them`,
        { kind: 'invalid-request', provider: 'local', model: this.name, status: 400 },
      );
    }
    let inputTokens = 0;
    const vectors = texts.map((text) => {
      inputTokens += tokenize(text).length;
      return normalised(embedder.embed(text));
    });
    return { vectors, usage: { inputTokens }, modelName: this.name };
  }

  private load(): WordVectorEmbedder {
    this.embedder ??= sharedEmbedder(
      this.options.vectors ?? loadWordVectors(),
      DEFAULT_WORD_WEIGHTING,
    );
    return this.embedder;
  }
}

function normalised(vector: Float64Array): number[] {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return Array.from(vector, (value) => (norm === 0 ? 0 : value / norm));
}
