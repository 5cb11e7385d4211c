import { type EmbeddingModel } from 'nest-model-router/core';
import { noKeyReason, type ProviderConfig } from 'nest-model-router/config';
import { OpenAiCompatibleEmbeddingModel } from 'nest-model-router/providers';
import type { ProviderSource } from '../config/gateway-config.js';

/** `provider/model-id` embedding models of one provider, or why it cannot serve them. */
export type EmbeddingProvider = ((modelId: string) => EmbeddingModel) | { disabled: string };

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * The providers that can embed: those on the OpenAI-compatible wire (`type: openai`), with the
 * base URL and key they use for chat. A provider given as a function or of another type (the
 * Anthropic API has no embeddings) has none. A blank key disables it, as it does for chat.
 */
export function embeddingProviders(
  providers: Record<string, ProviderSource> | undefined,
): Record<string, EmbeddingProvider> {
  const result: Record<string, EmbeddingProvider> = {};
  for (const [name, source] of Object.entries(providers ?? {})) {
    if (typeof source === 'function' || 'disabled' in source) continue;
    const config = source as ProviderConfig & { baseURL?: unknown; apiKey?: unknown };
    if (config.type !== 'openai') continue;
    const apiKey = typeof config.apiKey === 'string' ? config.apiKey : undefined;
    if ('apiKey' in config && !apiKey?.trim()) {
      result[name] = { disabled: noKeyReason(name) };
      continue;
    }
    const baseURL = typeof config.baseURL === 'string' ? config.baseURL : OPENAI_BASE_URL;
    result[name] = (model) =>
      new OpenAiCompatibleEmbeddingModel({ baseURL, model, ...(apiKey ? { apiKey } : {}) });
  }
  return result;
}
