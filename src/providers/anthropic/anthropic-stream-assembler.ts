import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ToolCall } from '../../core/chat/messages.js';
import type { ChatResponse } from '../../core/chat/response.js';
import {
  inputTokensOf,
  cacheTokensOf,
  type CacheTokens,
  toAiMessage,
  toFinishReason,
  toTokenUsage,
  type AnthropicUsageLike,
} from './anthropic-response-mapper.js';

type StreamEvent = Record<string, unknown> & { type?: unknown };

interface ToolBlock {
  /** The call's number among this answer's tool calls (block indexes count text blocks too). */
  index: number;
  id: string;
  name: string;
  json: string;
}

/**
 * Folds Anthropic stream events (message_start, content_block_*, message_delta, message_stop)
 * into text deltas, tool-call argument deltas, tool calls (emitted whole when their block closes)
 * and the final response.
 */
export class AnthropicStreamAssembler {
  private text = '';
  private readonly toolCalls: ToolCall[] = [];
  private readonly toolBlocks = new Map<number, ToolBlock>();
  private toolCount = 0;
  private stopReason: string | null = null;
  private inputTokens?: number;
  private outputTokens?: number;
  private cache: CacheTokens = {};
  private id?: string;
  private answeringModel?: string;

  constructor(private readonly requestedModel: string) {}

  /** The provider has said why it stopped (message_delta carries the final usage with it). */
  get finished(): boolean {
    return this.stopReason !== null;
  }

  push(event: StreamEvent): ChatStreamEvent[] {
    switch (event.type) {
      case 'message_start': {
        const message = (event.message ?? {}) as {
          id?: string;
          model?: string;
          usage?: AnthropicUsageLike;
        };
        if (message.id) this.id = message.id;
        if (message.model) this.answeringModel = message.model;
        this.inputTokens = inputTokensOf(message.usage);
        this.cache = cacheTokensOf(message.usage);
        if (typeof message.usage?.output_tokens === 'number')
          this.outputTokens = message.usage.output_tokens;
        if (this.inputTokens === undefined) return [];
        return [
          { type: 'input-usage', tokenUsage: { inputTokens: this.inputTokens, ...this.cache } },
        ];
      }
      case 'content_block_start': {
        const block = (event.content_block ?? {}) as {
          type?: string;
          text?: string;
          id?: string;
          name?: string;
        };
        if (block.type === 'tool_use') {
          const tool = {
            index: this.toolCount++,
            id: block.id ?? '',
            name: block.name ?? '',
            json: '',
          };
          this.toolBlocks.set(Number(event.index), tool);
          return [
            {
              type: 'tool-call-delta',
              index: tool.index,
              id: tool.id,
              name: tool.name,
              argumentsDelta: '',
            },
          ];
        } else if (block.type === 'text' && block.text) {
          return this.addText(block.text);
        }
        return [];
      }
      case 'content_block_delta': {
        const delta = (event.delta ?? {}) as {
          type?: string;
          text?: string;
          partial_json?: string;
        };
        if (delta.type === 'text_delta' && delta.text) return this.addText(delta.text);
        if (delta.type === 'input_json_delta' && delta.partial_json) {
          const block = this.toolBlocks.get(Number(event.index));
          if (block) {
            block.json += delta.partial_json;
            return [
              { type: 'tool-call-delta', index: block.index, argumentsDelta: delta.partial_json },
            ];
          }
        }
        return [];
      }
      case 'content_block_stop': {
        const block = this.toolBlocks.get(Number(event.index));
        if (!block) return [];
        this.toolBlocks.delete(Number(event.index));
        const toolCall: ToolCall = {
          id: block.id,
          name: block.name,
          arguments: block.json || '{}',
        };
        this.toolCalls.push(toolCall);
        return [{ type: 'tool-call', toolCall }];
      }
      case 'message_delta': {
        const delta = (event.delta ?? {}) as { stop_reason?: string | null };
        const usage = (event.usage ?? {}) as AnthropicUsageLike;
        if (typeof usage.output_tokens === 'number') this.outputTokens = usage.output_tokens;
        const input = inputTokensOf(usage);
        if (input !== undefined) {
          this.inputTokens = input;
          this.cache = cacheTokensOf(usage);
        }
        if (delta.stop_reason) this.stopReason = delta.stop_reason;
        return [];
      }
      default:
        return [];
    }
  }

  /** The final `complete`; call once `finished`. */
  finish(): ChatStreamEvent {
    const response: ChatResponse = {
      aiMessage: toAiMessage(this.text, this.toolCalls),
      modelName: this.answeringModel || this.requestedModel,
    };
    const finishReason = toFinishReason(this.stopReason, this.toolCalls.length > 0);
    if (finishReason) response.finishReason = finishReason;
    const usage = toTokenUsage(this.inputTokens, this.outputTokens, this.cache);
    if (usage) response.tokenUsage = usage;
    if (this.id) response.id = this.id;
    return { type: 'complete', response };
  }

  private addText(text: string): ChatStreamEvent[] {
    this.text += text;
    return [{ type: 'text-delta', text }];
  }
}
