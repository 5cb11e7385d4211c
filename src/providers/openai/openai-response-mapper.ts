import type { ChatCompletion, ChatCompletionTokenLogprob } from 'openai/resources/chat/completions';
import type { AiMessage, ToolCall } from '../../core/chat/messages.js';
import type {
  ChatResponse,
  FinishReason,
  TokenUsage,
  UpstreamInfo,
} from '../../core/chat/response.js';
import { refusalAttribute } from '../../core/chat/call-attributes.js';
import { logprobsAttribute, type TokenLogprob } from '../../core/chat/logprobs.js';
import { tokenCount } from '../shared/token-count.js';

/**
 * OpenAI finish reasons → ours. `content_filter` is a response, not an error: the caller gets
 * what was generated and `finishReason: 'content_filter'`. A `stop` that carries tool calls (some
 * compatible servers say so) is reported as `tool_calls`.
 */
export function toFinishReason(
  reason: string | null | undefined,
  hasToolCalls: boolean,
): FinishReason | undefined {
  switch (reason) {
    case 'stop':
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    case null:
    case undefined:
      return undefined;
    default:
      return 'other';
  }
}

/**
 * Finish reasons that say the server gave the answer up: vLLM and SGLang end an aborted
 * generation with `abort`, others with `error`. What came before is truncated: a failure of the
 * model (`stream_truncated` / `answer_aborted`), never an answer.
 */
export function isAbortedFinish(reason: string | null | undefined): boolean {
  return reason === 'abort' || reason === 'error';
}

export function toTokenUsage(
  usage:
    | {
        prompt_tokens?: number;
        completion_tokens?: number;
        total_tokens?: number;
        prompt_tokens_details?: { cached_tokens?: number | null } | null;
      }
    | null
    | undefined,
): TokenUsage | undefined {
  if (!usage) return undefined;
  const result: TokenUsage = {};
  const input = tokenCount(usage.prompt_tokens);
  const output = tokenCount(usage.completion_tokens);
  const total = tokenCount(usage.total_tokens);
  if (input !== undefined) result.inputTokens = input;
  if (output !== undefined) result.outputTokens = output;
  if (total !== undefined) result.totalTokens = total;
  // part of prompt_tokens, served from the provider's prompt cache (priced at cachedInput)
  const cached = tokenCount(usage.prompt_tokens_details?.cached_tokens);
  if (cached !== undefined && cached > 0) result.cachedInputTokens = cached;
  return result;
}

export function toTokenLogprobs(entries: readonly ChatCompletionTokenLogprob[]): TokenLogprob[] {
  return entries.map((entry) => ({
    token: entry.token,
    logprob: entry.logprob,
    topLogprobs: (entry.top_logprobs ?? []).map((top) => ({
      token: top.token,
      logprob: top.logprob,
    })),
  }));
}

export interface AssembledAnswer {
  text: string;
  refusal?: string;
  toolCalls: ToolCall[];
  logprobs: TokenLogprob[];
}

/** `system_fingerprint` and `service_tier` of a completion or chunk, when it has them. */
export function toUpstreamInfo(
  fingerprint: string | null | undefined,
  tier: string | null | undefined,
): UpstreamInfo | undefined {
  if (!fingerprint && !tier) return undefined;
  return {
    ...(fingerprint ? { systemFingerprint: fingerprint } : {}),
    ...(tier ? { serviceTier: tier } : {}),
  };
}

/** The AI message of an answer: text (a refusal when there is no text), tool calls, logprobs. */
export function toAiMessage(answer: AssembledAnswer): AiMessage {
  const message: AiMessage = { role: 'assistant' };
  const text = answer.text || answer.refusal || '';
  if (text) message.text = text;
  if (answer.toolCalls.length > 0) message.toolCalls = answer.toolCalls;
  // most answers have neither: no attributes object is built for them
  if (answer.logprobs.length === 0 && !answer.refusal) return message;
  message.attributes = {
    ...(answer.logprobs.length > 0 ? logprobsAttribute.entry(answer.logprobs) : {}),
    ...(answer.refusal ? refusalAttribute.entry(answer.refusal) : {}),
  };
  return message;
}

/**
 * A message's (or delta's) content as text: a string as it is; an array of parts (what Mistral's
 * API and some compatible servers send) as its `text` parts joined, its other parts (thinking)
 * left out; anything else as no text, never as an object passed on in place of text.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as unknown[]) {
    const { type, text: partText } = (part ?? {}) as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof partText === 'string') text += partText;
  }
  return text;
}

/** A non-streamed completion → ChatResponse (`modelName`: the model that answered). */
export function fromOpenAiCompletion(
  completion: ChatCompletion,
  requestedModel: string,
): ChatResponse | undefined {
  const choice = completion.choices?.[0];
  if (!choice) return undefined;
  const toolCalls: ToolCall[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type === 'function') {
      toolCalls.push({
        id: call.id,
        name: call.function.name,
        arguments: call.function.arguments ?? '',
      });
    }
  }
  const response: ChatResponse = {
    aiMessage: toAiMessage({
      text: contentText(choice.message.content),
      refusal: choice.message.refusal || undefined,
      toolCalls,
      logprobs: choice.logprobs?.content ? toTokenLogprobs(choice.logprobs.content) : [],
    }),
    modelName: completion.model || requestedModel,
  };
  const finishReason = toFinishReason(choice.finish_reason, toolCalls.length > 0);
  if (finishReason) response.finishReason = finishReason;
  const usage = toTokenUsage(completion.usage);
  if (usage) response.tokenUsage = usage;
  if (completion.id) response.id = completion.id;
  const upstream = toUpstreamInfo(completion.system_fingerprint, completion.service_tier);
  if (upstream) response.upstream = upstream;
  return response;
}
