import type { EmbeddingModel } from 'nest-model-router/core';
import { providerEmbeddingSource, type ProviderConfig } from 'nest-model-router/config';
import type { ProviderSource } from '../config/gateway-config.js';

/** `provider/model-id` embedding models of one provider, or why it cannot serve them. */
export type EmbeddingProvider = ((modelId: string) => EmbeddingModel) | { disabled: string };

/**
 * The providers that can embed (the library's `providerEmbeddingSource`). A provider given as a
 * function, or one already disabled for chat, has none.
 */
export function embeddingProviders(
  providers: Record<string, ProviderSource> | undefined,
): Record<string, EmbeddingProvider> {
  const result: Record<string, EmbeddingProvider> = {};
  for (const [name, source] of Object.entries(providers ?? {})) {
    if (typeof source === 'function' || 'disabled' in source) continue;
    const embedding = providerEmbeddingSource(name, source as ProviderConfig);
    if (embedding) result[name] = embedding;
  }
  return result;
}
