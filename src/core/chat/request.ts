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
}

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
