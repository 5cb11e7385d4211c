import { randomBytes } from 'node:crypto';
import type { ChatResponse, TokenUsage } from 'nest-model-router';
import { logprobsOf, totalTokensOf, type TokenLogprob } from 'nest-model-router/core';
import type { AnsweredBy } from '../http/answered-by.js';
import type { ToolCallIds } from '../openai/tool-call-ids.js';
import type { ResponsesRequest } from './responses-body.js';
import type {
  ResponseObject,
  ResponsesOutputItem,
  ResponsesOutputText,
  ResponsesUsage,
} from './responses-wire-types.js';

/** An id in OpenAI's style: `resp_…`, `msg_…`, `fc_…`. */
export function itemId(prefix: 'resp' | 'msg' | 'fc'): string {
  return `${prefix}_${randomBytes(16).toString('hex')}`;
}

/** The parts of a response object that come from the request (OpenAI echoes them). */
export type ResponseEcho = Pick<
  ResponseObject,
  | 'instructions'
  | 'max_output_tokens'
  | 'metadata'
  | 'parallel_tool_calls'
  | 'previous_response_id'
  | 'reasoning'
  | 'store'
  | 'temperature'
  | 'top_p'
  | 'text'
  | 'tool_choice'
  | 'tools'
  | 'truncation'
> & { user?: string };

export function echoOf(body: ResponsesRequest): ResponseEcho {
  return {
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: body.metadata ?? {},
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: null },
    // echoed as asked; nothing is kept either way (previous_response_id is refused)
    store: body.store ?? true,
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    text: { format: body.text?.format ?? { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    truncation: 'disabled',
    ...(body.user ? { user: body.user } : {}),
  };
}

/** The response object for a call, `status` and `incomplete_details` from the finish reason. */
export function responseObject(
  id: string,
  createdAt: number,
  model: string,
  echo: ResponseEcho,
  outcome:
    | { status: 'in_progress' }
    | {
        status: 'done';
        response: ChatResponse;
        output: ResponsesOutputItem[];
        /** Not OpenAI's (as chat's `usage.cost`): USD of the call, when its model has pricing. */
        costUsd?: number;
      },
): ResponseObject {
  const base = { id, object: 'response' as const, created_at: createdAt, model, ...echo };
  if (outcome.status === 'in_progress') {
    return {
      ...base,
      status: 'in_progress',
      output: [],
      usage: null,
      error: null,
      incomplete_details: null,
    };
  }
  const reason = outcome.response.finishReason;
  const incomplete =
    reason === 'length'
      ? ({ reason: 'max_output_tokens' } as const)
      : reason === 'content_filter'
        ? ({ reason: 'content_filter' } as const)
        : null;
  return {
    ...base,
    status: incomplete ? 'incomplete' : 'completed',
    output: outcome.output,
    usage: {
      ...toResponsesUsage(outcome.response.tokenUsage),
      ...(outcome.costUsd !== undefined ? { cost: outcome.costUsd } : {}),
    },
    error: null,
    incomplete_details: incomplete,
  };
}

/** The output items of a whole answer: its text as one message, then each function call. */
export function outputItems(
  response: ChatResponse,
  answeredBy: AnsweredBy,
  ids: ToolCallIds,
): ResponsesOutputItem[] {
  const items: ResponsesOutputItem[] = [];
  const status = response.finishReason === 'length' ? 'incomplete' : 'completed';
  if (response.aiMessage.text) {
    items.push({
      type: 'message',
      id: itemId('msg'),
      status,
      role: 'assistant',
      content: [outputText(response.aiMessage.text, logprobsOf(response))],
    });
  }
  for (const call of response.aiMessage.toolCalls ?? []) {
    items.push({
      type: 'function_call',
      id: itemId('fc'),
      call_id: ids.encode(call.id, answeredBy.origin),
      name: call.name,
      arguments: call.arguments,
      status: 'completed',
    });
  }
  return items;
}

export function outputText(text: string, logprobs: TokenLogprob[] = []): ResponsesOutputText {
  return {
    type: 'output_text' as const,
    text,
    annotations: [],
    logprobs: logprobs.map((entry) => ({
      token: entry.token,
      logprob: entry.logprob,
      bytes: bytesOf(entry.token),
      top_logprobs: entry.topLogprobs.map((top) => ({
        token: top.token,
        logprob: top.logprob,
        bytes: bytesOf(top.token),
      })),
    })),
  };
}

/** A token's UTF-8 bytes, as the Responses API lists them next to it. */
function bytesOf(token: string): number[] {
  return [...Buffer.from(token, 'utf8')];
}

export function toResponsesUsage(usage: TokenUsage | undefined): ResponsesUsage {
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage?.cachedInputTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: totalTokensOf(usage),
  };
}
