import type { AnsweredBy } from '../http/answered-by.js';
import { randomUUID } from 'node:crypto';
import { type ChatStreamEvent, type ChatResponse, type TokenUsage } from 'nest-model-router';
import {
  logprobsAttribute,
  refusalAttribute,
  totalTokensOf,
  type TokenLogprob,
} from 'nest-model-router/core';
import { ToolCallDeltas } from './tool-call-deltas.js';
import { processToolCallIds, type ToolCallIds } from './tool-call-ids.js';
import type {
  WireChatCompletion,
  WireChatCompletionChunk,
  WireLogprobs,
  WireServiceFields,
  WireToolCall,
  WireUsage,
} from './wire-types.js';

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
  const attributes = response.aiMessage.attributes;
  const refusal = refusalAttribute.of(attributes);
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
          // a refusal is the message's text too (the library has one text); OpenAI's is null then
          content: refusal !== undefined ? null : (response.aiMessage.text ?? null),
          // only when there is one: clients read a missing refusal as none
          ...(refusal !== undefined ? { refusal } : {}),
          ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: response.finishReason ?? (toolCalls?.length ? 'tool_calls' : 'stop'),
        logprobs: toWireLogprobs(logprobsAttribute.of(attributes)),
      },
    ],
    usage: toWireUsage(response.tokenUsage, costUsd),
    ...serviceFields(response),
  };
}

/** `system_fingerprint` and `service_tier` of the upstream's answer, when it gave them. */
export function serviceFields({ upstream }: ChatResponse): WireServiceFields {
  return {
    ...(upstream?.systemFingerprint ? { system_fingerprint: upstream.systemFingerprint } : {}),
    ...(upstream?.serviceTier ? { service_tier: upstream.serviceTier } : {}),
  };
}

/** The providers' token logprobs (`attributes.logprobs`) in OpenAI's shape. */
function toWireLogprobs(value: unknown): WireLogprobs | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  return {
    content: (value as TokenLogprob[]).map((entry) => ({
      token: entry.token,
      logprob: entry.logprob,
      bytes: null,
      top_logprobs: (entry.topLogprobs ?? []).map((top) => ({
        token: top.token,
        logprob: top.logprob,
        bytes: null,
      })),
    })),
    refusal: null,
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
    total_tokens: totalTokensOf(usage),
    ...(usage?.cachedInputTokens
      ? { prompt_tokens_details: { cached_tokens: usage.cachedInputTokens } }
      : {}),
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
 * Turns stream events into OpenAI chunks. Stateful per stream: the first chunk carries the role
 * (and `content: null`: clients such as the AI SDK open a text part for any string, even ''),
 * tool-call arguments go out as they arrive, and the last chunk carries finish_reason and usage.
 */
export class ChunkEncoder {
  private started = false;
  /** The start of every chunk of the serving model, up to its delta (see encodeJson). */
  private head: { model: string; json: string } | undefined;
  private readonly toolCalls = new ToolCallDeltas((providerId) =>
    this.ids.encode(providerId, this.answeredBy().origin),
  );

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
    // OpenAI's chunks have no place for input tokens before the end: usage comes last
    if (event.type === 'input-usage') return [];
    const chunks: WireChatCompletionChunk[] = [];
    if (!this.started) {
      this.started = true;
      chunks.push(this.chunk({ role: 'assistant', content: null, refusal: null }, null));
    }
    switch (event.type) {
      case 'text-delta':
        if (event.text) chunks.push(this.chunk({ content: event.text }, null));
        break;
      case 'tool-call-delta':
        chunks.push(this.chunk({ tool_calls: [this.toolCalls.delta(event)] }, null));
        break;
      case 'tool-call': {
        const rest = this.toolCalls.complete(event.toolCall);
        if (rest) chunks.push(this.chunk({ tool_calls: [rest] }, null));
        break;
      }
      case 'complete': {
        const response = event.response;
        const reason =
          response.finishReason ?? (response.aiMessage.toolCalls?.length ? 'tool_calls' : 'stop');
        const usage = toWireUsage(response.tokenUsage, this.costOf(response));
        const service = serviceFields(response);
        const finish = this.chunk({}, reason);
        // the core stream carries logprobs on its complete answer only: they go out at once here
        finish.choices[0]!.logprobs = toWireLogprobs(
          logprobsAttribute.of(response.aiMessage.attributes),
        );
        if (!this.includeUsage) {
          chunks.push({ ...finish, ...service, usage });
          break;
        }
        chunks.push({ ...finish, ...service, usage: null });
        chunks.push({ ...this.chunk({}, null), ...service, choices: [], usage });
        break;
      }
      default:
        break; // an event type this gateway does not know yet: clients need nothing of it
    }
    return chunks;
  }

  /**
   * The chunks of `event` as JSON text, exactly as `JSON.stringify` would write `encode`'s: a
   * text delta (most of a stream's chunks) is written around its text, the fields every chunk
   * repeats (id, created, model) stringified once per stream rather than once per chunk.
   */
  encodeJson(event: ChatStreamEvent): string[] {
    if (event.type !== 'text-delta')
      return this.encode(event).map((chunk) => JSON.stringify(chunk));
    const chunks: string[] = [];
    if (!this.started) {
      this.started = true;
      chunks.push(this.deltaJson('{"role":"assistant","content":null,"refusal":null}'));
    }
    if (event.text) chunks.push(this.deltaJson(`{"content":${JSON.stringify(event.text)}}`));
    return chunks;
  }

  /** A chunk of `delta` (JSON text) that does not finish the choice. */
  private deltaJson(delta: string): string {
    const model = this.answeredBy().model;
    if (this.head?.model !== model) {
      this.head = {
        model,
        json: `{"id":${JSON.stringify(this.id)},"object":"chat.completion.chunk","created":${JSON.stringify(this.created)},"model":${JSON.stringify(model)},"choices":[{"index":0,"delta":`,
      };
    }
    return `${this.head.json}${delta},"logprobs":null,"finish_reason":null}]}`;
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
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
  }
}
