import type { EmbeddingModel } from '../core/embeddings/embedding-model.js';
import { OpenAiCompatibleEmbeddingModel } from '../providers/embeddings/openai-compatible-embedding-model.js';
import type { ProviderConfig } from './model-router-config.js';
import { noKeyReason, type DisabledProvider } from './provider-model-source.js';

/** `provider/model-id` embedding models of one provider. */
export type EmbeddingFactory = (modelId: string) => EmbeddingModel;

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * A provider entry of the YAML's `providers` as a source of embedding models, beside
 * `providerModelSource` for its chat models: only the OpenAI-compatible wire (`type: openai`)
 * embeds (the Anthropic API has none), with the base URL and key the provider uses for chat.
 * Undefined for a provider that cannot embed; disabled, with the same reason its chat models
 * give, when its `apiKey` is blank.
 */
export function providerEmbeddingSource(
  name: string,
  provider: ProviderConfig,
): EmbeddingFactory | DisabledProvider | undefined {
  const config = provider as ProviderConfig & { baseURL?: unknown; apiKey?: unknown };
  if (config.type !== 'openai') return undefined;
  const apiKey = typeof config.apiKey === 'string' ? config.apiKey : undefined;
  if ('apiKey' in config && !apiKey?.trim()) return { disabled: noKeyReason(name) };
  const baseURL = typeof config.baseURL === 'string' ? config.baseURL : OPENAI_BASE_URL;
  return (model) =>
    new OpenAiCompatibleEmbeddingModel({ baseURL, model, ...(apiKey ? { apiKey } : {}) });
}
