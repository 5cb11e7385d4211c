import type { PlannedAnswer } from './answer-planner.js';
import type { FakeChatRequest, FakeMessage } from './fake-chat-request.js';
import { reportsUsage } from './fake-chat-request.js';
import type { StreamFrame, StreamPlan } from './stream-player.js';
import { countTokens, tokenize } from './tokens.js';

type Json = Record<string, unknown>;

/** Reads an Anthropic messages body; throws a message for a 400 on bad input. */
export function parseAnthropicMessages(body: Json): FakeChatRequest {
  if (typeof body.model !== 'string' || body.model === '') throw new Error('model: Field required');
  if (typeof body.max_tokens !== 'number' || body.max_tokens < 1) {
    throw new Error('max_tokens: Field required (an integer >= 1)');
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new Error('messages: at least one message is required');
  }
  const messages: FakeMessage[] = [];
  const system = systemText(body.system);
  if (system) messages.push({ role: 'system', text: system });
  const toolNames = new Map<string, string>();
  (body.messages as Json[]).forEach((message, index) => {
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw new Error(`messages.${index}.role: Input should be 'user' or 'assistant'`);
    }
    const blocks: Json[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : Array.isArray(message.content)
          ? (message.content as Json[])
          : [];
    if (message.role === 'assistant') {
      const names: string[] = [];
      for (const block of blocks) {
        if (block.type === 'tool_use') {
          toolNames.set(String(block.id), String(block.name));
          names.push(String(block.name));
        }
      }
      messages.push({ role: 'assistant', text: blockText(blocks), toolCallNames: names });
      return;
    }
    for (const block of blocks.filter((b) => b.type === 'tool_result')) {
      const toolName = toolNames.get(String(block.tool_use_id));
      messages.push({
        role: 'tool',
        text:
          typeof block.content === 'string'
            ? block.content
            : blockText((block.content as Json[]) ?? []),
        ...(toolName === undefined ? {} : { toolName }),
      });
    }
    const rest = blocks.filter((b) => b.type !== 'tool_result');
    if (rest.length > 0) messages.push({ role: 'user', text: blockText(rest) });
  });
  const last = messages[messages.length - 1]!;
  if (last.role === 'assistant' && /\s$/.test(last.text)) {
    throw new Error('messages: final assistant content cannot end with trailing whitespace');
  }
  const format = (body.output_config as Json | undefined)?.format as Json | undefined;
  return {
    dialect: 'anthropic',
    model: body.model,
    messages,
    tools: (Array.isArray(body.tools) ? (body.tools as Json[]) : []).map((tool) => ({
      name: String(tool.name),
      ...(tool.input_schema ? { parameters: tool.input_schema as Json } : {}),
    })),
    toolChoice: toolChoiceOf(body.tool_choice as Json | undefined),
    ...(format?.type === 'json_schema' ? { json: { schema: format.schema as Json } } : {}),
    maxTokens: body.max_tokens,
    stop: Array.isArray(body.stop_sequences) ? (body.stop_sequences as string[]) : [],
    stream: body.stream === true,
    includeUsage: true,
    logprobs: false,
    topLogprobs: 0,
    body,
  };
}

function toolChoiceOf(choice: Json | undefined): FakeChatRequest['toolChoice'] {
  switch (choice?.type) {
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { name: String(choice.name) };
    default:
      return 'auto';
  }
}

function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  return Array.isArray(system) ? blockText(system as Json[]) : '';
}

function blockText(blocks: Json[]): string {
  return blocks
    .filter((block) => block.type !== 'tool_use')
    .map((block) => (block.type === 'text' ? String(block.text) : `[${String(block.type)}]`))
    .join(' ');
}

const STOP_REASONS: Record<PlannedAnswer['finishReason'], string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

export interface AnthropicEncodeContext {
  id: string;
  request: FakeChatRequest;
  answer: PlannedAnswer;
}

function stopOf(answer: PlannedAnswer) {
  return answer.stopSequence
    ? { stop_reason: 'stop_sequence', stop_sequence: answer.stopSequence }
    : { stop_reason: STOP_REASONS[answer.finishReason], stop_sequence: null };
}

function inputTokens(request: FakeChatRequest): number {
  return Math.max(
    1,
    request.messages.reduce((sum, m) => sum + countTokens(m.text), 0),
  );
}

function outputTokens(answer: PlannedAnswer): number {
  return (
    countTokens(answer.text) +
    answer.toolCalls.reduce((sum, c) => sum + 1 + countTokens(c.arguments), 0)
  );
}

export function anthropicMessage(ctx: AnthropicEncodeContext): Json {
  const content: Json[] = [];
  if (ctx.answer.text) content.push({ type: 'text', text: ctx.answer.text });
  for (const call of ctx.answer.toolCalls) {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: JSON.parse(call.arguments || '{}'),
    });
  }
  return {
    id: ctx.id,
    type: 'message',
    role: 'assistant',
    model: ctx.request.model,
    content,
    ...stopOf(ctx.answer),
    ...(reportsUsage(ctx.request)
      ? {
          usage: {
            input_tokens: inputTokens(ctx.request),
            output_tokens: outputTokens(ctx.answer),
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
          },
        }
      : {}),
  };
}

function event(name: string, data: Json): string {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
}

export function anthropicStreamPlan(ctx: AnthropicEncodeContext): StreamPlan {
  const frames: StreamFrame[] = [];
  frames.push({
    kind: 'meta',
    data: event('message_start', {
      message: {
        id: ctx.id,
        type: 'message',
        role: 'assistant',
        model: ctx.request.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        ...(reportsUsage(ctx.request)
          ? { usage: { input_tokens: inputTokens(ctx.request), output_tokens: 1 } }
          : {}),
      },
    }),
  });
  frames.push({ kind: 'meta', data: event('ping', {}) });
  let index = 0;
  if (ctx.answer.text) {
    frames.push({
      kind: 'meta',
      data: event('content_block_start', { index, content_block: { type: 'text', text: '' } }),
    });
    for (const token of tokenize(ctx.answer.text)) {
      frames.push({
        kind: 'token',
        data: event('content_block_delta', { index, delta: { type: 'text_delta', text: token } }),
      });
    }
    frames.push({ kind: 'meta', data: event('content_block_stop', { index }) });
    index++;
  }
  for (const call of ctx.answer.toolCalls) {
    frames.push({
      kind: 'token',
      data: event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      }),
    });
    for (const piece of halves(call.arguments)) {
      frames.push({
        kind: 'token',
        data: event('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        }),
      });
    }
    frames.push({ kind: 'meta', data: event('content_block_stop', { index }) });
    index++;
  }
  frames.push({
    kind: 'finish',
    data: event('message_delta', {
      delta: stopOf(ctx.answer),
      ...(reportsUsage(ctx.request) ? { usage: { output_tokens: outputTokens(ctx.answer) } } : {}),
    }),
  });
  frames.push({ kind: 'terminator', data: event('message_stop', {}) });
  return {
    frames,
    errorFrame: event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }),
    malformedFrame:
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"MALFORMED\n\n',
  };
}

function halves(text: string): string[] {
  if (text.length < 2) return text ? [text] : [];
  const mid = Math.floor(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}
