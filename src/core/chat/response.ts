import type { AiMessage } from './messages.js';

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

export interface ChatResponse {
  aiMessage: AiMessage;
  modelName?: string;
  tokenUsage?: TokenUsage;
  finishReason?: FinishReason;
  id?: string;
}

/** `totalTokens`, or input + output when the provider reported only those; 0 when unknown. */
export function totalTokensOf(usage: TokenUsage | undefined): number {
  if (!usage) return 0;
  if (typeof usage.totalTokens === 'number') return usage.totalTokens;
  return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}
