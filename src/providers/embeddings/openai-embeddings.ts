import OpenAI from 'openai';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import type { EmbedFunction } from './openai-compatible-embed.js';
import { toProviderError } from '../shared/provider-error-mapper.js';
import { environmentKey } from '../shared/sdk-client-options.js';

export interface OpenAiEmbeddingsOptions {
  /** e.g. `text-embedding-3-small`, `nomic-embed-text`. */
  model: string;
  /** A client of your own (e.g. `AzureOpenAI`); `baseURL`, `apiKey`, `timeout` are then ignored. */
  client?: OpenAI;
  baseURL?: string;
  /** Default `OPENAI_API_KEY`. Never appears in errors. */
  apiKey?: string;
  /** SDK timeout in ms. */
  timeout?: number;
  /** SDK retries; default 0. */
  maxRetries?: number;
  /** Requested vector size (OpenAI's v3 models). */
  dimensions?: number;
  /** Names the provider in errors; default `openai`. */
  providerName?: string;
}

/**
 * An `embed` function for `EmbeddingDecisionModel` on the official `openai` SDK, for clients the
 * built-in fetch client cannot be (Azure, custom auth, SDK retries):
 * `new EmbeddingDecisionModel({ embed: openAiEmbeddings({ client: azure, model }) })`.
 * Failures become `ProviderException` without the key; the caller's abort rejects with its reason.
 */
export function openAiEmbeddings(options: OpenAiEmbeddingsOptions): EmbedFunction {
  if (typeof options?.model !== 'string' || !options.model.trim()) {
    throw new InvalidConfigurationException('openAiEmbeddings needs a model name (model)');
  }
  // OPENAI_API_KEY belongs to OpenAI's API: another endpoint without a key gets a placeholder
  const apiKey =
    options.apiKey ??
    environmentKey(options.baseURL, {
      apiKeyEnv: 'OPENAI_API_KEY',
      officialHost: 'api.openai.com',
    });
  if (!options.client && !apiKey) {
    throw new InvalidConfigurationException(
      'openAiEmbeddings needs an apiKey (or OPENAI_API_KEY, or a client); local servers accept any non-empty value',
    );
  }
  const client =
    options.client ??
    new OpenAI({
      apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      ...(options.timeout ? { timeout: options.timeout } : {}),
      maxRetries: options.maxRetries ?? 0,
    });
  const secrets = apiKey ? [apiKey] : [];
  const provider = options.providerName ?? 'openai';

  return async (texts, signal) => {
    try {
      const response = await client.embeddings.create(
        {
          model: options.model,
          input: texts,
          encoding_format: 'float',
          ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
        },
        signal ? { signal } : {},
      );
      return response.data.toSorted((a, b) => a.index - b.index).map((item) => item.embedding);
    } catch (error) {
      throw toProviderError(error, {
        provider,
        model: options.model,
        secrets,
        ...(signal ? { signal } : {}),
      });
    }
  };
}
