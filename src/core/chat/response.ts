import type { AiMessage } from './messages.js';

export interface TokenUsage {
  /** Every prompt token, cached or not (a provider that counts them apart is summed). */
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  /**
   * Of `inputTokens`, those the provider read from its prompt cache (OpenAI's
   * `prompt_tokens_details.cached_tokens`, Anthropic's `cache_read_input_tokens`).
   */
  cachedInputTokens?: number;
  /** Of `inputTokens`, those written to the provider's cache (`cache_creation_input_tokens`). */
  cacheWriteInputTokens?: number;
  /**
   * True when the provider did not report some of these counts and they were estimated from the
   * text sent and received (see `withEstimatedUsage`); absent when every count was reported.
   */
  estimated?: boolean;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

/** What the provider reported about how it served the call, for gateways to pass on. */
export interface UpstreamInfo {
  /** OpenAI's `system_fingerprint`: the backend configuration that answered. */
  systemFingerprint?: string;
  /** OpenAI's `service_tier`. */
  serviceTier?: string;
}

export interface ChatResponse {
  aiMessage: AiMessage;
  modelName?: string;
  tokenUsage?: TokenUsage;
  finishReason?: FinishReason;
  id?: string;
  /** Present only when the provider reported any of it. */
  upstream?: UpstreamInfo;
}

/**
 * `totalTokens`, or input + output when the provider reported only those; 0 when unknown or not a
 * positive finite count (a provider's garbage never becomes a negative charge).
 */
export function totalTokensOf(usage: TokenUsage | undefined): number {
  if (!usage) return 0;
  const total = usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  return Number.isFinite(total) && total > 0 ? total : 0;
}
