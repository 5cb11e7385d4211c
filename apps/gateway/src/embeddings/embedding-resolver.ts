import { BadRequestException } from '@nestjs/common';
import { type EmbeddingModel, FailoverEmbeddingModel } from 'nest-model-router/core';
import { assertAllowed, type KeyAccess, OPEN_ACCESS } from '../auth/key-access.js';
import { failoverListName } from '../models/failover-list-name.js';
import { UnknownModelException } from '../openai/openai-error.js';
import type { EmbeddingProvider } from './embedding-providers.js';

/** What `model` (and `models`) of an embeddings body names, and the name the answer carries. */
export interface ResolvedEmbedding {
  /** The model's name, or `failover(a,b,…)` for a list, as chat names one. */
  name: string;
  model: EmbeddingModel;
}

/**
 * Embedding models by name: the configured ones, a provider's (`provider/model-id`), or a
 * failover list over `[model, ...models]` built for the request, as chat's `models` is.
 */
export class EmbeddingResolver {
  constructor(
    private readonly configured: Record<string, EmbeddingModel>,
    private readonly providers: Record<string, EmbeddingProvider>,
    /** A provider's allow-list (`providers.<name>.models`) holds for its embeddings too. */
    private readonly refusal: (provider: string, modelId: string) => string | undefined = () =>
      undefined,
  ) {}

  /** `access`: the caller's key scope, as for chat: a name outside it is a 403 naming it. */
  resolve(
    model: string,
    models?: readonly string[] | null,
    access: KeyAccess = OPEN_ACCESS,
  ): ResolvedEmbedding {
    const names = [...new Set([model, ...(models ?? [])])];
    const entries = names.map((name, i) => ({
      name,
      model: this.named(name, access, i === 0 ? 'model' : `models[${models!.indexOf(name)}]`),
    }));
    if (entries.length === 1) return entries[0]!;
    return { name: failoverListName(names), model: new FailoverEmbeddingModel(entries) };
  }

  names(): string[] {
    return Object.keys(this.configured);
  }

  /** The configured embedding models `access` may use (the key's `models` scope holds for them). */
  list(access: KeyAccess = OPEN_ACCESS): string[] {
    return this.names().filter((name) => access.allows('model', name));
  }

  /** Whether `name` is a configured embedding model; a 403 when `access` may not use it. */
  describes(name: string, access: KeyAccess = OPEN_ACCESS): boolean {
    if (!Object.hasOwn(this.configured, name)) return false;
    assertAllowed(access, 'model', name);
    return true;
  }

  private named(name: string, access: KeyAccess, param: string): EmbeddingModel {
    if (Object.hasOwn(this.configured, name)) {
      assertAllowed(access, 'model', name, param);
      return this.configured[name]!;
    }
    const slash = name.indexOf('/');
    const provider = slash > 0 ? this.providers[name.slice(0, slash)] : undefined;
    const modelId = name.slice(slash + 1);
    const providerName = name.slice(0, slash);
    if (typeof provider === 'function' && modelId.trim() !== '') {
      // scope first: a provider's allow-list is no business of a key that may not use it
      assertAllowed(access, 'provider-model', name, param);
      const refused = this.refusal(providerName, modelId);
      if (refused) throw new UnknownModelException(name, [], refused);
      return provider(modelId);
    }
    if (provider && 'disabled' in provider && access.allowsProvider(providerName)) {
      throw new UnknownModelException(name, [], provider.disabled);
    }
    if (name.length > 256) throw new BadRequestException('model: at most 256 characters');
    // only what this key may use: an error tells no one what other keys can reach
    throw new UnknownModelException(name, [
      ...this.list(access),
      ...Object.keys(this.providers)
        .filter((p) => access.allowsProvider(p))
        .map((p) => `${p}/<embedding-model-id>`),
    ]);
  }
}
