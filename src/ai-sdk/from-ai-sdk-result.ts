import type {
  LanguageModelV2Content,
  LanguageModelV2FinishReason,
  LanguageModelV2Usage,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3ResponseMetadata,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { ToolCall } from '../core/chat/messages.js';
import type { ChatResponse, FinishReason, TokenUsage } from '../core/chat/response.js';

/** What the two specifications share of a generate result (v3's richer usage and finish reason included). */
export interface AiSdkGenerateResult {
  content: Array<LanguageModelV3Content | LanguageModelV2Content>;
  finishReason: LanguageModelV3FinishReason | LanguageModelV2FinishReason;
  usage: LanguageModelV3Usage | LanguageModelV2Usage;
  response?: LanguageModelV3ResponseMetadata;
}

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
};

/** v3 `{ unified, raw }` or v2's string, as ours; `error`, `other` and `unknown` are `other`. */
export function finishReasonOf(
  reason: LanguageModelV3FinishReason | LanguageModelV2FinishReason | undefined,
): FinishReason {
  const unified = typeof reason === 'string' ? reason : reason?.unified;
  return (unified !== undefined && FINISH_REASONS[unified]) || 'other';
}

/** v3's `{ inputTokens: { total }, outputTokens: { total } }` or v2's flat counts, as ours. */
export function usageOf(
  usage: LanguageModelV3Usage | LanguageModelV2Usage | undefined,
): TokenUsage {
  if (!usage) return {};
  const input = count(usage.inputTokens);
  const output = count(usage.outputTokens);
  const reported = 'totalTokens' in usage ? usage.totalTokens : undefined;
  const total =
    reported ?? (input !== undefined && output !== undefined ? input + output : undefined);
  return {
    ...(input === undefined ? {} : { inputTokens: input }),
    ...(output === undefined ? {} : { outputTokens: output }),
    ...(total === undefined ? {} : { totalTokens: total }),
  };
}

function count(value: number | { total: number | undefined } | undefined): number | undefined {
  return typeof value === 'number' ? value : value?.total;
}

/** A generate result as our response: its text parts joined, its (client-side) tool calls. */
export function toChatResponse(result: AiSdkGenerateResult, modelId: string): ChatResponse {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of result.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool-call' && !part.providerExecuted) {
      toolCalls.push({ id: part.toolCallId, name: part.toolName, arguments: part.input });
    }
  }
  return chatResponse({
    text,
    toolCalls,
    usage: usageOf(result.usage),
    finishReason: finishReasonOf(result.finishReason),
    modelName: result.response?.modelId ?? modelId,
    id: result.response?.id,
  });
}

export interface ResponseFacts {
  text: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  finishReason: FinishReason;
  modelName: string;
  id: string | undefined;
}

export function chatResponse(facts: ResponseFacts): ChatResponse {
  return {
    aiMessage: {
      role: 'assistant',
      ...(facts.text === '' && facts.toolCalls.length > 0 ? {} : { text: facts.text }),
      ...(facts.toolCalls.length > 0 ? { toolCalls: facts.toolCalls } : {}),
    },
    modelName: facts.modelName,
    tokenUsage: facts.usage,
    finishReason: facts.finishReason,
    ...(facts.id === undefined ? {} : { id: facts.id }),
  };
}
