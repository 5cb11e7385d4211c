import type {
  JSONSchema7,
  LanguageModelV3CallOptions,
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3TextPart,
  LanguageModelV3ToolChoice,
} from '@ai-sdk/provider';
import type { ChatMessage, ContentPart } from '../core/chat/messages.js';
import { InvalidChatRequestException } from '../core/errors/invalid-chat-request.exception.js';
import type { ChatRequest, ToolChoice } from '../core/chat/request.js';

/** A tool without a schema still needs one: the AI SDK's function tools require `inputSchema`. */
const ANY_OBJECT = { type: 'object', properties: {} } as const;

/** Media types for parts that name only their kind, so the provider can still tell what it got. */
const DEFAULT_MEDIA_TYPE: Record<Exclude<ContentPart['type'], 'text'>, string> = {
  image: 'image/*',
  audio: 'audio/*',
  video: 'video/*',
  pdf: 'application/pdf',
};

/**
 * A ChatRequest as the call options of an AI SDK language model (specification v3; v2 reads the
 * same fields). `parameters.modelName` is not mapped: the language model's id is fixed.
 */
export function toCallOptions(
  request: ChatRequest,
  signal: AbortSignal | undefined,
): LanguageModelV3CallOptions {
  const parameters = request.parameters ?? {};
  const options: LanguageModelV3CallOptions = { prompt: toPrompt(request.messages) };
  if (parameters.temperature !== undefined) options.temperature = parameters.temperature;
  if (parameters.topP !== undefined) options.topP = parameters.topP;
  if (parameters.maxOutputTokens !== undefined) {
    options.maxOutputTokens = parameters.maxOutputTokens;
  }
  if (parameters.stopSequences?.length) options.stopSequences = parameters.stopSequences;
  // the rest (logit bias, logprobs, user...) have no common call option: providerOptions are per provider
  if (parameters.seed !== undefined) options.seed = parameters.seed;
  if (parameters.topK !== undefined) options.topK = parameters.topK;
  if (parameters.presencePenalty !== undefined)
    options.presencePenalty = parameters.presencePenalty;
  if (parameters.frequencyPenalty !== undefined)
    options.frequencyPenalty = parameters.frequencyPenalty;
  if (parameters.tools?.length) {
    options.tools = parameters.tools.map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      inputSchema: (tool.parameters ?? ANY_OBJECT) as JSONSchema7,
    }));
  }
  if (parameters.toolChoice !== undefined) options.toolChoice = toToolChoice(parameters.toolChoice);
  const format = parameters.responseFormat;
  if (format?.type === 'json') {
    options.responseFormat = format.jsonSchema
      ? { type: 'json', name: format.jsonSchema.name, schema: format.jsonSchema.schema }
      : { type: 'json' };
  }
  if (signal) options.abortSignal = signal;
  return options;
}

function toToolChoice(choice: ToolChoice): LanguageModelV3ToolChoice {
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.name };
}

function toPrompt(messages: readonly ChatMessage[]): LanguageModelV3Message[] {
  // a tool result names its tool in the AI SDK; ours may not, so find it among the calls made
  const toolNames = new Map<string, string>();
  const prompt: LanguageModelV3Message[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.text });
        break;
      case 'user':
        prompt.push({
          role: 'user',
          content:
            typeof message.content === 'string'
              ? [{ type: 'text', text: message.content }]
              : message.content.map(toUserPart),
        });
        break;
      case 'assistant': {
        const content: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] = [];
        if (message.text) content.push({ type: 'text', text: message.text });
        for (const call of message.toolCalls ?? []) {
          toolNames.set(call.id, call.name);
          content.push({
            type: 'tool-call',
            toolCallId: call.id,
            toolName: call.name,
            input: parseArguments(call.arguments),
          });
        }
        prompt.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        const part = {
          type: 'tool-result' as const,
          toolCallId: message.toolCallId,
          toolName: message.toolName ?? toolNames.get(message.toolCallId) ?? '',
          output: { type: 'text' as const, value: message.text },
        };
        // consecutive results answer one assistant turn: one tool message, as the AI SDK sends
        const last = prompt[prompt.length - 1];
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}

function toUserPart(part: ContentPart): LanguageModelV3TextPart | LanguageModelV3FilePart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const mediaType = part.mimeType ?? DEFAULT_MEDIA_TYPE[part.type];
  return {
    type: 'file',
    mediaType,
    data: part.url === undefined ? (part.data ?? '') : urlOf(part.url),
  };
}

function urlOf(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new InvalidChatRequestException(
      `a content part's url is not a URL: '${text.slice(0, 100)}'`,
    );
  }
}

/** Tool arguments are a JSON string here and a value there; a string that is not JSON stays one. */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
