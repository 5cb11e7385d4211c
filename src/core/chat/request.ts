import type { ChatMessage } from './messages.js';

export interface ToolSpecification {
  name: string;
  description?: string;
  /** JSON schema of the tool's arguments. */
  parameters?: Record<string, unknown>;
}

/**
 * Whether and which tool the model must call. `{ name }` forces that one function; a provider
 * that cannot force a named one narrows the tools to it and sends `required`.
 */
export type ToolChoice = 'auto' | 'required' | 'none' | { name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json'; jsonSchema?: { name: string; schema: Record<string, unknown> } };

export interface ChatRequestParameters {
  modelName?: string;
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  tools?: ToolSpecification[];
  toolChoice?: ToolChoice;
  responseFormat?: ResponseFormat;
  /**
   * The key a provider's prompt cache files this prompt under (OpenAI's `prompt_cache_key`);
   * default: derived from the system prompt and the first message (promptPrefixKey).
   */
  promptCacheKey?: string;
  /** Sampling seed, for repeatable answers where the provider honours it (an integer). */
  seed?: number;
  /** -2..2: lowers the odds of tokens by how often they have appeared. */
  frequencyPenalty?: number;
  /** -2..2: lowers the odds of tokens that have appeared at all. */
  presencePenalty?: number;
  /** Token id (a decimal string) to a bias of -100..100; at most 300 entries. */
  logitBias?: Record<string, number>;
  /** Ask for token logprobs: the answer carries them in `aiMessage.attributes.logprobs`. */
  logprobs?: boolean;
  /** 0..20 most likely alternatives per token; sent with `logprobs`. */
  topLogprobs?: number;
  /** Sample from the k most likely tokens only (a positive integer). */
  topK?: number;
  /** The end user, for the provider's abuse monitoring (at most 256 characters). */
  user?: string;
  /** Whether the model may call several tools in one turn. */
  parallelToolCalls?: boolean;
  /** How hard a reasoning model thinks (OpenAI's `reasoning_effort`). */
  reasoningEffort?: ReasoningEffort;
  /** The provider's processing tier (OpenAI's `service_tier`: auto, default, flex, priority). */
  serviceTier?: string;
}

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export interface ChatRequest {
  messages: ChatMessage[];
  parameters?: ChatRequestParameters;
}

/** Request parameters win over defaults; `undefined` in the request does not erase a default. */
export function mergeParameters(
  defaults: ChatRequestParameters | undefined,
  parameters: ChatRequestParameters | undefined,
): ChatRequestParameters {
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(parameters ?? {})) {
    if (value !== undefined) merged[key] = value;
  }
  return merged as ChatRequestParameters;
}
