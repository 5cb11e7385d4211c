import type {
  Base64ImageSource,
  ContentBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ContentPart } from '../../core/chat/messages.js';
import type { ChatRequest, ChatRequestParameters } from '../../core/chat/request.js';
import { invalidRequest } from '../shared/invalid-request.js';

export interface AnthropicRequestSettings {
  provider: string;
  model: string;
  /** `max_tokens` when the request sets no `maxOutputTokens` (Anthropic requires one). */
  maxTokens: number;
  structuredOutputs: boolean;
  /**
   * Marks a system prompt of at least this many characters cacheable (`cache_control:
   * ephemeral`); undefined: never.
   */
  cacheSystemFromChars?: number;
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * The messages body for a request (without `stream`). System messages become the `system`
 * prompt; tool results travel as `tool_result` blocks in a user turn (consecutive ones share
 * it); a trailing assistant message is sent as a prefill that Claude continues, with trailing
 * whitespace trimmed because the API rejects it.
 */
export function toAnthropicBody(
  request: ChatRequest,
  settings: AnthropicRequestSettings,
): MessageCreateParamsBase {
  const parameters: ChatRequestParameters = request.parameters ?? {};
  const fail = (problem: string) => invalidRequest(settings.provider, settings.model, problem);
  const system = request.messages
    .filter((message) => message.role === 'system')
    .map((message) => message.text)
    .join('\n\n');
  // temperature/top_p are absent from this SDK's types (newer Claude models reject them); they are
  // still sent when the caller sets them, for the models that take them
  const body: MessageCreateParamsBase & { temperature?: number; top_p?: number; top_k?: number } = {
    model: settings.model,
    max_tokens: parameters.maxOutputTokens ?? settings.maxTokens,
    messages: toAnthropicMessages(request.messages, fail),
  };
  if (system) {
    const cacheable =
      settings.cacheSystemFromChars !== undefined && system.length >= settings.cacheSystemFromChars;
    // a cache write costs more than input once, and reads cost a tenth after: long prompts only
    body.system = cacheable
      ? [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }]
      : system;
  }
  if (parameters.temperature !== undefined) body.temperature = parameters.temperature;
  if (parameters.topP !== undefined) body.top_p = parameters.topP;
  // what the Messages API has no field for (seed, penalties, logit bias, logprobs, reasoning effort,
  // service tier) is dropped, as Anthropic's own OpenAI-compatible endpoint drops it: a group may
  // mix providers, and a request any member can serve must not fail on this one
  if (parameters.topK !== undefined) body.top_k = parameters.topK;
  if (parameters.user !== undefined) body.metadata = { user_id: parameters.user };
  if (parameters.stopSequences && parameters.stopSequences.length > 0)
    body.stop_sequences = parameters.stopSequences;
  if (parameters.tools && parameters.tools.length > 0) {
    body.tools = parameters.tools.map((tool): Tool => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      input_schema: (tool.parameters ?? { type: 'object', properties: {} }) as Tool['input_schema'],
    }));
  }
  if (parameters.toolChoice === 'auto') body.tool_choice = { type: 'auto' };
  if (parameters.toolChoice === 'required') body.tool_choice = { type: 'any' };
  if (parameters.toolChoice === 'none') body.tool_choice = { type: 'none' };
  if (typeof parameters.toolChoice === 'object') {
    body.tool_choice = { type: 'tool', name: parameters.toolChoice.name };
  }
  const choice = body.tool_choice ?? { type: 'auto' };
  if (parameters.parallelToolCalls === false && body.tools && choice.type !== 'none') {
    body.tool_choice = { ...choice, disable_parallel_tool_use: true };
  }
  const format = parameters.responseFormat;
  if (format?.type === 'json') {
    if (!format.jsonSchema) {
      throw fail(
        "responseFormat { type: 'json' } needs a jsonSchema: the Anthropic API has no schema-less JSON mode",
      );
    }
    if (!settings.structuredOutputs) {
      throw fail(
        'responseFormat.jsonSchema needs structured outputs; set structuredOutputs: true if this Claude model supports them',
      );
    }
    body.output_config = { format: { type: 'json_schema', schema: format.jsonSchema.schema } };
  }
  return body;
}

function toAnthropicMessages(
  messages: ChatMessage[],
  fail: (problem: string) => Error,
): MessageParam[] {
  const result: MessageParam[] = [];
  const lastIndex = messages.length - 1;
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'system':
        return;
      case 'user': {
        const content =
          typeof message.content === 'string'
            ? [{ type: 'text' as const, text: message.content }]
            : message.content.map((part, partIndex) =>
                toBlock(part, `messages[${index}].content[${partIndex}]`, fail),
              );
        return appendUserBlocks(result, content);
      }
      case 'tool':
        return appendUserBlocks(result, [
          { type: 'tool_result', tool_use_id: message.toolCallId, content: message.text },
        ]);
      case 'assistant': {
        const blocks: ContentBlockParam[] = [];
        const isPrefill = index === lastIndex && !message.toolCalls?.length;
        const text = isPrefill ? (message.text ?? '').trimEnd() : message.text;
        if (text) blocks.push({ type: 'text', text });
        (message.toolCalls ?? []).forEach((call, callIndex) => {
          blocks.push({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: parseArguments(
              call.arguments,
              `messages[${index}].toolCalls[${callIndex}].arguments`,
              fail,
            ),
          });
        });
        if (blocks.length > 0) result.push({ role: 'assistant', content: blocks });
        return;
      }
      default:
        throw fail(
          `messages[${index}].role '${String((message as { role?: unknown }).role)}' is not system, user, assistant or tool`,
        );
    }
  });
  if (result.length === 0) throw fail('messages: at least one user message is required');
  return result;
}

/** Tool results and the user text after them share one user turn, results first. */
function appendUserBlocks(result: MessageParam[], blocks: ContentBlockParam[]): void {
  const last = result[result.length - 1];
  if (last?.role === 'user' && Array.isArray(last.content)) {
    last.content.push(...blocks);
  } else {
    result.push({ role: 'user', content: blocks });
  }
}

function toBlock(
  part: ContentPart,
  field: string,
  fail: (problem: string) => Error,
): ContentBlockParam {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      if (part.url) return { type: 'image', source: { type: 'url', url: part.url } };
      if (!part.data) throw fail(`${field}: an image part needs \`url\` or base64 \`data\``);
      if (part.mimeType && !IMAGE_TYPES.has(part.mimeType)) {
        throw fail(
          `${field}: image type '${part.mimeType}' is not one of ${[...IMAGE_TYPES].join(', ')}`,
        );
      }
      return {
        type: 'image',
        source: {
          type: 'base64',
          media_type: (part.mimeType ?? 'image/png') as Base64ImageSource['media_type'],
          data: part.data,
        },
      };
    case 'pdf':
      if (part.url) return { type: 'document', source: { type: 'url', url: part.url } };
      if (!part.data) throw fail(`${field}: a pdf part needs \`url\` or base64 \`data\``);
      return {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: part.data },
      };
    default:
      throw fail(
        `${field}: a ${part.type} part cannot be sent to the Anthropic messages API (supported: text, image, pdf)`,
      );
  }
}

function parseArguments(text: string, field: string, fail: (problem: string) => Error): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw fail(`${field} is not valid JSON`);
  }
}
