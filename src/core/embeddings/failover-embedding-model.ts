import { throwIfAborted } from '../chat/abort.js';
import {
  InvalidConfigurationException,
  NoMatchingModelFoundException,
} from '../errors/exceptions.js';
import { classifyError, dispositionOf } from '../resilience/error-classification.js';
import type { EmbedOptions, EmbeddingModel, EmbeddingResult } from './embedding-model.js';

export interface NamedEmbeddingModel {
  name: string;
  model: EmbeddingModel;
}

/**
 * Embedding models tried in order: a failure the error table says to fail over from (outage,
 * rate limit, timeout…) moves on to the next; the caller's own fault (a 400, an abort) does not,
 * since every model would refuse it too. All failed → NoMatchingModelFoundException with each
 * error in order. Deliberately without circuits: embeddings are cheap to retry and stateless.
 */
export class FailoverEmbeddingModel implements EmbeddingModel {
  private readonly models: readonly NamedEmbeddingModel[];

  constructor(models: readonly NamedEmbeddingModel[]) {
    if (!Array.isArray(models) || models.length === 0) {
      throw new InvalidConfigurationException('a failover embedding group needs models');
    }
    this.models = [...models];
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<EmbeddingResult> {
    const errors: unknown[] = [];
    for (const { name, model } of this.models) {
      throwIfAborted(options.signal);
      try {
        const result = await model.embed(texts, options);
        return {
          ...result,
          modelName: result.modelName ?? name,
          servedBy: result.servedBy ?? name,
        };
      } catch (error) {
        const kind = classifyError(error, options.signal);
        if (!dispositionOf(kind).failover) throw error;
        errors.push(error);
      }
    }
    throw new NoMatchingModelFoundException(
      `No matching route: every embedding model failed (${this.models.map((m) => m.name).join(', ')})`,
      errors,
    );
  }
}
