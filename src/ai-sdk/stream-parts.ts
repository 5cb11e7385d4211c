import type { LanguageModelV2StreamPart, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { ChatStreamEvent } from '../core/chat/chat-model.js';
import type { ToolCall } from '../core/chat/messages.js';
import type { FinishReason, TokenUsage } from '../core/chat/response.js';
import { chatResponse, finishReasonOf, usageOf } from './from-ai-sdk-result.js';

export type AiSdkStreamPart = LanguageModelV3StreamPart | LanguageModelV2StreamPart;

/** Thrown for an `error` part: the caller classifies what it carries. */
export class StreamPartError {
  constructor(readonly error: unknown) {}
}

/**
 * Turns a language model's stream parts into our events, one part at a time: text deltas,
 * streamed tool input as `tool-call-delta` (numbered in the order calls start), whole tool
 * calls, and at the end one `complete` built from what was seen (`finish` gives usage and reason).
 */
export class StreamPartsAssembler {
  private text = '';
  private readonly toolCalls: ToolCall[] = [];
  /** The index of each streamed tool input by its id, and whether its first delta went out. */
  private readonly inputs = new Map<string, { index: number; name: string; announced: boolean }>();
  private usage: TokenUsage = {};
  private finishReason: FinishReason | undefined;
  private id: string | undefined;
  private modelName: string;

  constructor(modelId: string) {
    this.modelName = modelId;
  }

  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  push(part: AiSdkStreamPart): ChatStreamEvent | undefined {
    switch (part.type) {
      case 'text-delta':
        if (part.delta === '') return undefined;
        this.text += part.delta;
        return { type: 'text-delta', text: part.delta };
      case 'tool-input-start':
        if (!part.providerExecuted) {
          this.inputs.set(part.id, {
            index: this.inputs.size,
            name: part.toolName,
            announced: false,
          });
        }
        return undefined;
      case 'tool-input-delta':
        return this.inputDelta(part.id, part.delta);
      case 'tool-call': {
        if (part.providerExecuted) return undefined;
        const toolCall = { id: part.toolCallId, name: part.toolName, arguments: part.input };
        this.toolCalls.push(toolCall);
        return { type: 'tool-call', toolCall };
      }
      case 'response-metadata':
        if (part.id !== undefined) this.id = part.id;
        if (part.modelId !== undefined) this.modelName = part.modelId;
        return undefined;
      case 'finish':
        this.usage = usageOf(part.usage);
        this.finishReason = finishReasonOf(part.finishReason);
        return undefined;
      case 'error':
        throw new StreamPartError(part.error);
      default:
        return undefined;
    }
  }

  /** The final event; call once the stream ended with a `finish` part. */
  complete(): ChatStreamEvent {
    return {
      type: 'complete',
      response: chatResponse({
        text: this.text,
        toolCalls: this.toolCalls,
        usage: this.usage,
        finishReason: this.finishReason ?? 'other',
        modelName: this.modelName,
        id: this.id,
      }),
    };
  }

  private inputDelta(id: string, delta: string): ChatStreamEvent | undefined {
    const input = this.inputs.get(id);
    if (!input || delta === '') return undefined;
    if (input.announced)
      return { type: 'tool-call-delta', index: input.index, argumentsDelta: delta };
    input.announced = true;
    return {
      type: 'tool-call-delta',
      index: input.index,
      id,
      name: input.name,
      argumentsDelta: delta,
    };
  }
}
