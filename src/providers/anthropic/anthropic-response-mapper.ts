import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { AiMessage, ToolCall } from '../../core/chat/messages.js';
import type { ChatResponse, FinishReason, TokenUsage } from '../../core/chat/response.js';
import { tokenCount } from '../shared/token-count.js';

/**
 * Anthropic stop reasons → ours. `refusal` (Claude declined) is a response with finish reason
 * `content_filter`, not an error.
 */
export function toFinishReason(
  reason: string | null | undefined,
  hasToolCalls: boolean,
): FinishReason | undefined {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    case null:
    case undefined:
      return undefined;
    default:
      return 'other';
  }
}

export interface AnthropicUsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Input tokens include cache writes and reads: they all count against the model's window and bill. */
export function inputTokensOf(usage: AnthropicUsageLike | null | undefined): number | undefined {
  const input = tokenCount(usage?.input_tokens);
  if (input === undefined) return undefined;
  return (
    input +
    (tokenCount(usage?.cache_creation_input_tokens) ?? 0) +
    (tokenCount(usage?.cache_read_input_tokens) ?? 0)
  );
}

/** The prompt cache's part of the input tokens: read from it, written to it. */
export type CacheTokens = Pick<TokenUsage, 'cachedInputTokens' | 'cacheWriteInputTokens'>;

export function cacheTokensOf(usage: AnthropicUsageLike | null | undefined): CacheTokens {
  const tokens: CacheTokens = {};
  const read = tokenCount(usage?.cache_read_input_tokens);
  const written = tokenCount(usage?.cache_creation_input_tokens);
  if (read !== undefined && read > 0) tokens.cachedInputTokens = read;
  if (written !== undefined && written > 0) tokens.cacheWriteInputTokens = written;
  return tokens;
}

export function toTokenUsage(
  input: number | undefined,
  output: number | undefined,
  cache: CacheTokens = {},
): TokenUsage | undefined {
  // the output count comes as the server sent it (message_delta, the message's usage)
  output = tokenCount(output);
  if (input === undefined && output === undefined) return undefined;
  const usage: TokenUsage = { ...cache };
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (input !== undefined && output !== undefined) usage.totalTokens = input + output;
  return usage;
}

export function toAiMessage(text: string, toolCalls: ToolCall[]): AiMessage {
  const message: AiMessage = { role: 'assistant' };
  if (text) message.text = text;
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  return message;
}

export function fromAnthropicMessage(message: Message, requestedModel: string): ChatResponse {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of message.content ?? []) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        name: block.name,
        arguments: JSON.stringify(block.input ?? {}),
      });
    }
  }
  const response: ChatResponse = {
    aiMessage: toAiMessage(text, toolCalls),
    modelName: message.model || requestedModel,
  };
  const finishReason = toFinishReason(message.stop_reason, toolCalls.length > 0);
  if (finishReason) response.finishReason = finishReason;
  const usage = toTokenUsage(
    inputTokensOf(message.usage),
    message.usage?.output_tokens ?? undefined,
    cacheTokensOf(message.usage),
  );
  if (usage) response.tokenUsage = usage;
  if (message.id) response.id = message.id;
  return response;
}
