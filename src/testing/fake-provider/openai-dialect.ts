import type { PlannedAnswer } from './answer-planner.js';
import type { FakeChatRequest, FakeMessage } from './fake-chat-request.js';
import { reportsUsage } from './fake-chat-request.js';
import { logprobsFor } from './logprobs.js';
import type { StreamFrame, StreamPlan } from './stream-player.js';
import { countTokens, tokenize } from './tokens.js';

type Json = Record<string, unknown>;

/** Reads an OpenAI chat completions body; throws a message for a 400 on bad input. */
export function parseOpenAiChat(body: Json): FakeChatRequest {
  if (typeof body.model !== 'string' || body.model === '')
    throw new Error('model: a non-empty string is required');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new Error('messages: a non-empty array is required');
  }
  const toolNames = new Map<string, string>();
  const messages: FakeMessage[] = (body.messages as Json[]).map((message, index) => {
    const role = message.role;
    if (role === 'system' || role === 'developer')
      return { role: 'system', text: contentText(message.content) };
    if (role === 'user') return { role: 'user', text: contentText(message.content) };
    if (role === 'assistant') {
      const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
      const names = calls.map((call) => {
        const name = String((call.function as Json | undefined)?.name ?? '');
        toolNames.set(String(call.id), name);
        return name;
      });
      return { role: 'assistant', text: contentText(message.content), toolCallNames: names };
    }
    if (role === 'tool') {
      const toolName = toolNames.get(String(message.tool_call_id));
      return {
        role: 'tool',
        text: contentText(message.content),
        ...(toolName === undefined ? {} : { toolName }),
      };
    }
    throw new Error(`messages[${index}].role: unknown role '${String(role)}'`);
  });
  const format = body.response_format as Json | undefined;
  const schema = (format?.json_schema as Json | undefined)?.schema as Json | undefined;
  const streamOptions = body.stream_options as Json | undefined;
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  return {
    dialect: 'openai',
    model: body.model,
    messages,
    tools: (Array.isArray(body.tools) ? (body.tools as Json[]) : []).map((tool) => {
      const fn = (tool.function ?? {}) as Json;
      return {
        name: String(fn.name),
        ...(fn.parameters ? { parameters: fn.parameters as Json } : {}),
      };
    }),
    toolChoice: toolChoiceOf(body.tool_choice),
    ...(format?.type === 'json_schema'
      ? { json: schema ? { schema } : {} }
      : format?.type === 'json_object'
        ? { json: {} }
        : {}),
    ...(typeof maxTokens === 'number' ? { maxTokens } : {}),
    stop:
      typeof body.stop === 'string'
        ? [body.stop]
        : Array.isArray(body.stop)
          ? (body.stop as string[])
          : [],
    stream: body.stream === true,
    includeUsage: streamOptions?.include_usage === true,
    logprobs: body.logprobs === true,
    topLogprobs: typeof body.top_logprobs === 'number' ? body.top_logprobs : 0,
    body,
  };
}

function toolChoiceOf(choice: unknown): FakeChatRequest['toolChoice'] {
  if (choice === 'none' || choice === 'required' || choice === 'auto') return choice;
  const name = ((choice as Json | undefined)?.function as Json | undefined)?.name;
  return typeof name === 'string' ? { name } : 'auto';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Json[])
    .map((part) => (part.type === 'text' ? String(part.text) : `[${partLabel(part.type)}]`))
    .join(' ');
}

function partLabel(type: unknown): string {
  if (type === 'image_url') return 'image';
  if (type === 'input_audio') return 'audio';
  return String(type);
}

export interface EncodeContext {
  id: string;
  created: number;
  request: FakeChatRequest;
  answer: PlannedAnswer;
}

function usageOf(ctx: EncodeContext) {
  const prompt = Math.max(
    1,
    ctx.request.messages.reduce((sum, message) => sum + countTokens(message.text), 0),
  );
  const completion =
    countTokens(ctx.answer.text) +
    ctx.answer.toolCalls.reduce((sum, call) => sum + 1 + countTokens(call.arguments), 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}

function logprobsBlock(ctx: EncodeContext, tokens: string[]) {
  if (!ctx.request.logprobs) return null;
  return {
    content: logprobsFor(tokens, ctx.request.topLogprobs, ctx.answer.firstTokenTopLogprobs),
    refusal: null,
  };
}

export function openAiCompletion(ctx: EncodeContext): Json {
  const { answer } = ctx;
  const message: Json = {
    role: 'assistant',
    content: answer.text === '' && answer.toolCalls.length > 0 ? null : answer.text,
    refusal: null,
  };
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: ctx.id,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.request.model,
    system_fingerprint: 'fp_fake',
    choices: [
      {
        index: 0,
        message,
        logprobs: logprobsBlock(ctx, tokenize(answer.text)),
        finish_reason: answer.finishReason,
      },
    ],
    ...(reportsUsage(ctx.request) ? { usage: usageOf(ctx) } : {}),
  };
}

export function openAiStreamPlan(ctx: EncodeContext): StreamPlan {
  const frames: StreamFrame[] = [];
  const chunk = (choices: unknown[], extra: Json = {}) =>
    `data: ${JSON.stringify({
      id: ctx.id,
      object: 'chat.completion.chunk',
      created: ctx.created,
      model: ctx.request.model,
      system_fingerprint: 'fp_fake',
      choices,
      ...extra,
    })}\n\n`;
  frames.push({ kind: 'meta', data: chunk([streamChoice({ role: 'assistant', content: '' })]) });
  const tokens = tokenize(ctx.answer.text);
  const logprobs = logprobsBlock(ctx, tokens);
  tokens.forEach((token, index) => {
    const tokenLogprobs = logprobs ? { content: [logprobs.content[index]], refusal: null } : null;
    frames.push({
      kind: 'token',
      data: chunk([streamChoice({ content: token }, null, tokenLogprobs)]),
    });
  });
  ctx.answer.toolCalls.forEach((call, index) => {
    frames.push({
      kind: 'token',
      data: chunk([
        streamChoice({
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      ]),
    });
    for (const piece of splitInThree(call.arguments)) {
      frames.push({
        kind: 'token',
        data: chunk([streamChoice({ tool_calls: [{ index, function: { arguments: piece } }] })]),
      });
    }
  });
  frames.push({ kind: 'finish', data: chunk([streamChoice({}, ctx.answer.finishReason)]) });
  if (ctx.request.includeUsage && reportsUsage(ctx.request))
    frames.push({ kind: 'finish', data: chunk([], { usage: usageOf(ctx) }) });
  frames.push({ kind: 'terminator', data: 'data: [DONE]\n\n' });
  return {
    frames,
    errorFrame: `data: ${JSON.stringify({
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    })}\n\n`,
    malformedFrame: 'data: {"id": "broken", "choices": [{"delta": {"content": "MALFORMED\n\n',
  };
}

function streamChoice(delta: Json, finish: string | null = null, logprobs: unknown = null) {
  return { index: 0, delta, logprobs, finish_reason: finish };
}

function splitInThree(text: string): string[] {
  if (text.length < 3) return text ? [text] : [];
  const a = Math.floor(text.length / 3);
  const b = Math.floor((2 * text.length) / 3);
  return [text.slice(0, a), text.slice(a, b), text.slice(b)];
}
