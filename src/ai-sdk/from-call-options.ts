import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Message,
  LanguageModelV3ToolResultOutput,
  SharedV3Warning,
} from '@ai-sdk/provider';
import type { ChatMessage, ContentPart, MediaContentPart } from '../core/chat/messages.js';
import type { ChatRequest, ChatRequestParameters, ToolChoice } from '../core/chat/request.js';

/** The AI SDK's call options as a ChatRequest, with a warning for each setting it drops. */
export function fromCallOptions(options: LanguageModelV3CallOptions): {
  request: ChatRequest;
  warnings: SharedV3Warning[];
} {
  const warnings: SharedV3Warning[] = [];
  const parameters: ChatRequestParameters = {};
  if (options.seed !== undefined) parameters.seed = options.seed;
  if (options.topK !== undefined) parameters.topK = options.topK;
  if (options.presencePenalty !== undefined) parameters.presencePenalty = options.presencePenalty;
  if (options.frequencyPenalty !== undefined)
    parameters.frequencyPenalty = options.frequencyPenalty;
  if (options.temperature !== undefined) parameters.temperature = options.temperature;
  if (options.topP !== undefined) parameters.topP = options.topP;
  if (options.maxOutputTokens !== undefined) parameters.maxOutputTokens = options.maxOutputTokens;
  if (options.stopSequences?.length) parameters.stopSequences = options.stopSequences;
  const tools = [];
  for (const tool of options.tools ?? []) {
    if (tool.type !== 'function') {
      warnings.push({ type: 'unsupported', feature: `provider tool ${tool.name}` });
      continue;
    }
    tools.push({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.inputSchema as Record<string, unknown>,
    });
  }
  if (tools.length > 0) parameters.tools = tools;
  if (options.toolChoice) parameters.toolChoice = toolChoiceOf(options.toolChoice);
  const format = options.responseFormat;
  if (format?.type === 'json') {
    parameters.responseFormat = format.schema
      ? {
          type: 'json',
          jsonSchema: {
            name: format.name ?? 'response',
            schema: format.schema as Record<string, unknown>,
          },
        }
      : { type: 'json' };
  }
  const request: ChatRequest = { messages: options.prompt.flatMap(toMessages) };
  if (Object.keys(parameters).length > 0) request.parameters = parameters;
  return { request, warnings };
}

function toolChoiceOf(choice: NonNullable<LanguageModelV3CallOptions['toolChoice']>): ToolChoice {
  return choice.type === 'tool' ? { name: choice.toolName } : choice.type;
}

function toMessages(message: LanguageModelV3Message): ChatMessage[] {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', text: message.content }];
    case 'user': {
      const parts: ContentPart[] = message.content.map((part) =>
        part.type === 'text' ? { type: 'text', text: part.text } : mediaPart(part),
      );
      const textOnly = parts.every((part) => part.type === 'text');
      return [
        {
          role: 'user',
          content: textOnly ? parts.map((part) => (part as { text: string }).text).join('') : parts,
        },
      ];
    }
    case 'assistant': {
      let text = '';
      const toolCalls = [];
      for (const part of message.content) {
        if (part.type === 'text') text += part.text;
        else if (part.type === 'tool-call' && !part.providerExecuted) {
          toolCalls.push({
            id: part.toolCallId,
            name: part.toolName,
            arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input),
          });
        }
      }
      return [
        {
          role: 'assistant',
          ...(text === '' && toolCalls.length > 0 ? {} : { text }),
          ...(toolCalls.length > 0 ? { toolCalls } : {}),
        },
      ];
    }
    case 'tool':
      return message.content.flatMap((part) =>
        part.type === 'tool-result'
          ? [
              {
                role: 'tool' as const,
                toolCallId: part.toolCallId,
                toolName: part.toolName,
                text: outputText(part.output),
              },
            ]
          : [],
      );
  }
}

function mediaPart(part: { mediaType: string; data: Uint8Array | string | URL }): MediaContentPart {
  const [kind] = part.mediaType.split('/');
  const type =
    part.mediaType === 'application/pdf'
      ? 'pdf'
      : kind === 'audio' || kind === 'video'
        ? kind
        : 'image';
  const mimeType = { mimeType: part.mediaType };
  if (part.data instanceof URL) return { type, url: part.data.href, ...mimeType };
  if (typeof part.data === 'string') return { type, data: part.data, ...mimeType };
  return { type, data: Buffer.from(part.data).toString('base64'), ...mimeType };
}

/** A tool's output as the text a ChatModel's tool message carries. */
function outputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'The tool call was denied.';
    case 'content':
      return output.value
        .map((part) => (part.type === 'text' ? part.text : JSON.stringify(part)))
        .join('\n');
    default:
      return JSON.stringify(output);
  }
}
