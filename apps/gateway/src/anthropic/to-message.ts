import { randomBytes } from 'node:crypto';
import type { ChatResponse, TokenUsage, ToolCall } from 'nest-model-router';
import type { AnsweredBy } from '../http/answered-by.js';
import type { ToolCallIds } from '../openai/tool-call-ids.js';
import type {
  AnthropicContent,
  AnthropicMessageResponse,
  AnthropicStopReason,
  AnthropicUsage,
} from './anthropic-wire-types.js';

export function messageId(): string {
  return `msg_${randomBytes(12).toString('hex')}`;
}

/** Our finish reasons → Anthropic's stop reasons. */
export function toStopReason(response: ChatResponse): AnthropicStopReason {
  switch (response.finishReason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return response.aiMessage.toolCalls?.length ? 'tool_use' : 'end_turn';
  }
}

export function toAnthropicUsage(usage: TokenUsage | undefined): AnthropicUsage {
  return {
    // Anthropic's input_tokens leaves out the cache's reads and writes
    input_tokens: Math.max(
      0,
      (usage?.inputTokens ?? 0) -
        (usage?.cachedInputTokens ?? 0) -
        (usage?.cacheWriteInputTokens ?? 0),
    ),
    output_tokens: usage?.outputTokens ?? 0,
    cache_creation_input_tokens: usage?.cacheWriteInputTokens ?? 0,
    cache_read_input_tokens: usage?.cachedInputTokens ?? 0,
  };
}

/**
 * A tool call's input as the object Anthropic's wire requires. Arguments that are not a JSON
 * object (a model's malformed output) are kept under `_raw` rather than lost or turned into a 500.
 */
export function toolInput(call: ToolCall): Record<string, unknown> {
  try {
    const input: unknown = JSON.parse(call.arguments || '{}');
    if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
      return input as Record<string, unknown>;
    }
  } catch {
    // falls through
  }
  return { _raw: call.arguments };
}

export function toAnthropicMessage(
  id: string,
  response: ChatResponse,
  answeredBy: AnsweredBy,
  ids: ToolCallIds,
): AnthropicMessageResponse {
  const content: AnthropicContent[] = [];
  if (response.aiMessage.text) content.push({ type: 'text', text: response.aiMessage.text });
  for (const call of response.aiMessage.toolCalls ?? []) {
    content.push({
      type: 'tool_use',
      id: ids.encode(call.id, answeredBy.origin),
      name: call.name,
      input: toolInput(call),
    });
  }
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: answeredBy.model,
    content,
    stop_reason: toStopReason(response),
    stop_sequence: null,
    usage: toAnthropicUsage(response.tokenUsage),
  };
}
