/** What an embedding call reports besides the vectors. */
export interface EmbeddingUsage {
  inputTokens?: number;
}

export interface EmbeddingResult {
  /** One vector per input text, in order. */
  vectors: number[][];
  usage?: EmbeddingUsage;
  /** The model that answered (a failover group names the member that did). */
  modelName?: string;
  /**
   * The configured name of the model that answered, where it differs from what the caller
   * addressed (a failover group's member); `modelName` may be the provider's model id.
   */
  servedBy?: string;
}

export interface EmbedOptions {
  signal?: AbortSignal;
  /** A shorter vector, for models that can give one; others refuse it. */
  dimensions?: number;
}

/** An embedding model. A plain object with an `embed` function is a valid one. */
export interface EmbeddingModel {
  embed(texts: string[], options?: EmbedOptions): Promise<EmbeddingResult>;
}
