import type { FakeAnswer, FakeChatRequest, FakeMessage } from './fake-chat-request.js';
import { sampleFromSchema } from './schema-sample.js';
import { fakeId, tokenize } from './tokens.js';

export type FakeFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** What the fake provider will say, before any dialect encodes it. */
export interface PlannedAnswer {
  text: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: FakeFinishReason;
  /** The stop sequence that cut the text, if one did. */
  stopSequence?: string;
  firstTokenTopLogprobs?: Array<{ token: string; logprob: number }>;
}

/**
 * The deterministic answer to a request:
 * - after a tool result: `Tool <name> returned: <result> (model <model>)`;
 * - with tools, when the model name contains `tools` (first tool) or `parallel-tools` (every
 *   tool), or tool_choice is `required`/named: tool calls whose arguments sample the schema;
 * - with a JSON response format: an object sampled from the schema (`{ answer, model }` without);
 * - otherwise `You said: <last user text> (model <model>)`.
 * A trailing assistant message (prefill) is continued: the answer is what follows the prefill
 * when the full answer starts with it, else ` (continued by <model>)`. Stop sequences cut the
 * text (`stop`), `max_tokens` truncates it (`length`).
 */
export function planAnswer(
  request: FakeChatRequest,
  scripted: FakeAnswer | undefined,
  sequence: number,
): PlannedAnswer {
  if (scripted) return fromScript(request, scripted, sequence);
  const prefill = trailingPrefill(request.messages);
  const toolCalls = prefill === undefined ? plannedToolCalls(request, sequence) : [];
  if (toolCalls.length > 0) return { text: '', toolCalls, finishReason: 'tool_calls' };
  let text = fullText(request);
  if (prefill !== undefined) {
    text = text.startsWith(prefill)
      ? text.slice(prefill.length)
      : ` (continued by ${request.model})`;
  }
  return limitText(request, text);
}

function fromScript(request: FakeChatRequest, script: FakeAnswer, sequence: number): PlannedAnswer {
  const toolCalls = (script.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? toolCallId(request, call.name, sequence, index),
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  return {
    text: script.text ?? '',
    toolCalls,
    finishReason: script.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    ...(script.firstTokenTopLogprobs
      ? { firstTokenTopLogprobs: script.firstTokenTopLogprobs }
      : {}),
  };
}

function fullText(request: FakeChatRequest): string {
  const last = lastNonAssistant(request.messages);
  const userText = lastUserText(request.messages);
  if (last?.role === 'tool') {
    return `Tool ${last.toolName ?? 'call'} returned: ${last.text} (model ${request.model})`;
  }
  if (request.json) {
    const value = request.json.schema
      ? sampleFromSchema(request.json.schema, userText || request.model)
      : { answer: `You said: ${userText}`, model: request.model };
    return JSON.stringify(value);
  }
  return userText
    ? `You said: ${userText} (model ${request.model})`
    : `Hello (model ${request.model})`;
}

function plannedToolCalls(request: FakeChatRequest, sequence: number): PlannedAnswer['toolCalls'] {
  if (request.tools.length === 0 || request.toolChoice === 'none') return [];
  if (lastNonAssistant(request.messages)?.role === 'tool') return [];
  const model = request.model;
  let chosen = request.tools;
  if (typeof request.toolChoice === 'object') {
    const name = request.toolChoice.name;
    chosen = request.tools.filter((tool) => tool.name === name);
  } else if (!model.includes('parallel-tools')) {
    const wanted = request.toolChoice === 'required' || model.includes('tools');
    chosen = wanted ? request.tools.slice(0, 1) : [];
  }
  const userText = lastUserText(request.messages);
  return chosen.map((tool, index) => ({
    id: toolCallId(request, tool.name, sequence, index),
    name: tool.name,
    arguments: JSON.stringify(
      sampleFromSchema(tool.parameters ?? { type: 'object' }, userText || tool.name) ?? {},
    ),
  }));
}

function limitText(request: FakeChatRequest, text: string): PlannedAnswer {
  let finishReason: FakeFinishReason = 'stop';
  let result = text;
  let stopSequence: string | undefined;
  for (const stop of request.stop) {
    const at = stop ? result.indexOf(stop) : -1;
    if (at !== -1) {
      result = result.slice(0, at);
      stopSequence = stop;
    }
  }
  const tokens = tokenize(result);
  if (request.maxTokens !== undefined && tokens.length > request.maxTokens) {
    result = tokens.slice(0, request.maxTokens).join('');
    finishReason = 'length';
    stopSequence = undefined;
  }
  return { text: result, toolCalls: [], finishReason, ...(stopSequence ? { stopSequence } : {}) };
}

function toolCallId(request: FakeChatRequest, name: string, sequence: number, index: number) {
  const prefix = request.dialect === 'anthropic' ? 'toolu_' : 'call_';
  return fakeId(prefix, `${request.model}/${name}/${index}`, sequence);
}

function trailingPrefill(messages: FakeMessage[]): string | undefined {
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant' || (last.toolCallNames?.length ?? 0) > 0) return undefined;
  return last.text;
}

function lastNonAssistant(messages: FakeMessage[]): FakeMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role !== 'assistant') return messages[i];
  }
  return undefined;
}

function lastUserText(messages: FakeMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') return messages[i]!.text;
  }
  return '';
}
