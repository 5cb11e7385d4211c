// nest-model-router/providers: real chat models and HTTP clients (OpenAI-compatible, Anthropic,
// embeddings, the local demo model), on the official SDKs' types and the project's own HTTP path.

// Embeddings
export {
  EmbeddingDecisionModel,
  EMBEDDING_DECISION_DEFAULTS,
  type EmbeddingDecisionModelOptions,
  type EmbeddingScoringOptions,
} from './embeddings/embedding-decision-model.js';
export {
  openAiCompatibleEmbed,
  type EmbedFunction,
  type OpenAiCompatibleEmbeddingsOptions,
} from './embeddings/openai-compatible-embed.js';
export { openAiEmbeddings, type OpenAiEmbeddingsOptions } from './embeddings/openai-embeddings.js';
export { OpenAiCompatibleEmbeddingModel } from './embeddings/openai-compatible-embedding-model.js';

// Providers
export {
  OpenAiCompatibleChatModel,
  type OpenAiCompatibleChatModelOptions,
} from './openai/openai-compatible-chat-model.js';
export {
  AnthropicChatModel,
  type AnthropicChatModelOptions,
} from './anthropic/anthropic-chat-model.js';
export {
  LocalDemoChatModel,
  type LocalDemoChatModelOptions,
} from './local/local-demo-chat-model.js';
export type { MalformedChunkPolicy } from './shared/stream-guards.js';
export { closeProviderPools, type ProviderHttpOptions } from './shared/http/provider-pools.js';
export { toProviderError, type ProviderErrorContext } from './shared/provider-error-mapper.js';
export { kindOfProviderError } from './shared/error-kind.js';
export { redactSecrets } from './shared/redact.js';
export { CREDENTIALS_IN_URL, hasCredentials } from './shared/option-checks.js';
