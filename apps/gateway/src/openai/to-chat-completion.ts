import { randomUUID } from 'node:crypto';
import { type ChatStreamEvent, type ChatResponse, type TokenUsage } from 'nest-model-router';
import { processToolCallIds, type ToolCallIds, type ToolCallOrigin } from './tool-call-ids.js';
import type {
  WireChatCompletion,
  WireChatCompletionChunk,
  WireToolCall,
  WireUsage,
} from './wire-types.js';

/** Who answered: `model` is what the client sees in `model`; `origin` goes into tool call ids. */
export interface AnsweredBy {
  model: string;
  origin: ToolCallOrigin;
}

export function toChatCompletion(
  response: ChatResponse,
  answeredBy: AnsweredBy,
  created: number,
  costUsd?: number,
  ids: ToolCallIds = processToolCallIds,
): WireChatCompletion {
  const toolCalls = response.aiMessage.toolCalls?.map((call) =>
    toWireToolCall(call, answeredBy, ids),
  );
  return {
    id: completionId(response.id),
    object: 'chat.completion',
    created,
    model: answeredBy.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: response.aiMessage.text ?? null,
          ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: response.finishReason ?? (toolCalls?.length ? 'tool_calls' : 'stop'),
        logprobs: null,
      },
    ],
    usage: toWireUsage(response.tokenUsage, costUsd),
  };
}

/**
 * OpenAI's ids start with `chatcmpl-`, and clients rely on it (dedup, logs): a provider's own
 * such id is kept, any other (a local model's `local-demo-mini-4`, none at all) is replaced.
 */
export function completionId(providerId?: string): string {
  if (providerId?.startsWith('chatcmpl-')) return providerId;
  return `chatcmpl-${randomUUID().replaceAll('-', '')}`;
}

export function toWireUsage(usage: TokenUsage | undefined, costUsd?: number): WireUsage {
  const prompt = usage?.inputTokens ?? 0;
  const completion = usage?.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage?.totalTokens ?? prompt + completion,
    ...(costUsd !== undefined ? { cost: costUsd } : {}),
  };
}

/** `x-model-router-cost`: decimal USD, never in exponent notation (`0.0002`, not `2e-4`). */
export function costHeader(costUsd: number): string {
  return costUsd.toFixed(9).replace(/\.?0+$/, '') || '0';
}

function toWireToolCall(
  call: { id: string; name: string; arguments: string },
  answeredBy: AnsweredBy,
  ids: ToolCallIds,
): WireToolCall {
  return {
    id: ids.encode(call.id, answeredBy.origin),
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  };
}

/**
 * Turns stream events into OpenAI chunks. Stateful per stream: the first chunk carries the role,
 * tool calls are numbered, and the last chunk carries finish_reason and usage.
 */
export class ChunkEncoder {
  private started = false;
  private toolIndex = 0;

  constructor(
    private readonly id: string,
    private readonly created: number,
    private readonly answeredBy: () => AnsweredBy,
    /** What the finished answer cost (the final chunk's `usage.cost`). */
    private readonly costOf: (response: ChatResponse) => number | undefined = () => undefined,
    /**
     * `stream_options.include_usage`: as OpenAI, usage then comes in a last chunk of its own with
     * `choices: []`. Without it the finish chunk carries usage (the gateway's own, older shape).
     */
    private readonly includeUsage = false,
    private readonly ids: ToolCallIds = processToolCallIds,
  ) {}

  encode(event: ChatStreamEvent): WireChatCompletionChunk[] {
    const chunks: WireChatCompletionChunk[] = [];
    if (!this.started) {
      this.started = true;
      chunks.push(this.chunk({ role: 'assistant', content: '' }, null));
    }
    switch (event.type) {
      case 'text-delta':
        if (event.text) chunks.push(this.chunk({ content: event.text }, null));
        break;
      case 'tool-call':
        chunks.push(
          this.chunk(
            {
              tool_calls: [
                {
                  index: this.toolIndex++,
                  ...toWireToolCall(event.toolCall, this.answeredBy(), this.ids),
                },
              ],
            },
            null,
          ),
        );
        break;
      case 'complete': {
        const response = event.response;
        const reason =
          response.finishReason ?? (response.aiMessage.toolCalls?.length ? 'tool_calls' : 'stop');
        const usage = toWireUsage(response.tokenUsage, this.costOf(response));
        if (!this.includeUsage) {
          chunks.push({ ...this.chunk({}, reason), usage });
          break;
        }
        chunks.push({ ...this.chunk({}, reason), usage: null });
        chunks.push({ ...this.chunk({}, null), choices: [], usage });
        break;
      }
    }
    return chunks;
  }

  private chunk(
    delta: WireChatCompletionChunk['choices'][number]['delta'],
    finishReason: string | null,
  ): WireChatCompletionChunk {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.answeredBy().model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
  }
}
