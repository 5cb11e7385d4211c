import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ChatMessage, ContentPart } from '../../core/chat/messages.js';
import type { ChatRequest, ChatRequestParameters } from '../../core/chat/request.js';
import { invalidRequest } from '../shared/invalid-request.js';
import { promptPrefixKey } from '../../core/chat/prompt-prefix.js';

export interface OpenAiRequestSettings {
  provider: string;
  model: string;
  maxTokensParameter: 'max_tokens' | 'max_completion_tokens';
  strictJsonSchema: boolean;
  logprobs: boolean;
  topLogprobs?: number;
  extraBody?: Record<string, unknown>;
  /** Send a derived `prompt_cache_key` when the request has none of its own. */
  promptCacheKey?: boolean;
}

/** The chat completions body for a request (without `stream`). */
export function toOpenAiBody(
  request: ChatRequest,
  settings: OpenAiRequestSettings,
): ChatCompletionCreateParamsBase {
  const parameters: ChatRequestParameters = request.parameters ?? {};
  const body: ChatCompletionCreateParamsBase = {
    ...settings.extraBody,
    model: settings.model,
    messages: request.messages.map((message, index) => toOpenAiMessage(message, index, settings)),
  };
  if (parameters.temperature !== undefined) body.temperature = parameters.temperature;
  if (parameters.topP !== undefined) body.top_p = parameters.topP;
  if (parameters.maxOutputTokens !== undefined)
    body[settings.maxTokensParameter] = parameters.maxOutputTokens;
  if (parameters.stopSequences && parameters.stopSequences.length > 0)
    body.stop = parameters.stopSequences;
  if (parameters.tools && parameters.tools.length > 0) {
    body.tools = parameters.tools.map((tool): ChatCompletionTool => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parameters: tool.parameters ?? { type: 'object', properties: {} },
      },
    }));
  }
  const choice = parameters.toolChoice;
  if (typeof choice === 'object') {
    body.tool_choice = { type: 'function', function: { name: choice.name } };
  } else if (choice !== undefined) {
    body.tool_choice = choice;
  }
  const format = parameters.responseFormat;
  if (format?.type === 'json') {
    body.response_format = format.jsonSchema
      ? {
          type: 'json_schema',
          json_schema: {
            name: format.jsonSchema.name,
            schema: format.jsonSchema.schema,
            strict: settings.strictJsonSchema,
          },
        }
      : { type: 'json_object' };
  }
  const cacheKey =
    parameters.promptCacheKey ?? (settings.promptCacheKey && promptPrefixKey(request));
  if (cacheKey) body.prompt_cache_key = cacheKey;
  // the request's own logprobs win over the model's configured ones
  const topLogprobs = parameters.topLogprobs ?? settings.topLogprobs;
  if (parameters.logprobs ?? (parameters.topLogprobs !== undefined || settings.logprobs)) {
    body.logprobs = true;
    if (topLogprobs !== undefined) body.top_logprobs = topLogprobs;
  }
  forwardSampling(body, parameters);
  return body;
}

/** The parameters an OpenAI-compatible API takes as they are, under its names. */
function forwardSampling(
  body: ChatCompletionCreateParamsBase & { top_k?: number },
  parameters: ChatRequestParameters,
): void {
  if (parameters.seed !== undefined) body.seed = parameters.seed;
  if (parameters.frequencyPenalty !== undefined)
    body.frequency_penalty = parameters.frequencyPenalty;
  if (parameters.presencePenalty !== undefined) body.presence_penalty = parameters.presencePenalty;
  if (parameters.logitBias !== undefined) body.logit_bias = parameters.logitBias;
  // not OpenAI's, but vLLM's, Ollama's and other compatible servers': sent when the caller set it
  if (parameters.topK !== undefined) body.top_k = parameters.topK;
  if (parameters.user !== undefined) body.user = parameters.user;
  // OpenAI refuses parallel_tool_calls without tools
  if (parameters.parallelToolCalls !== undefined && body.tools)
    body.parallel_tool_calls = parameters.parallelToolCalls;
  if (parameters.reasoningEffort !== undefined)
    body.reasoning_effort =
      parameters.reasoningEffort as ChatCompletionCreateParamsBase['reasoning_effort'];
  if (parameters.serviceTier !== undefined)
    body.service_tier = parameters.serviceTier as ChatCompletionCreateParamsBase['service_tier'];
}

function toOpenAiMessage(
  message: ChatMessage,
  index: number,
  settings: OpenAiRequestSettings,
): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.text };
    case 'user':
      return {
        role: 'user',
        content:
          typeof message.content === 'string'
            ? message.content
            : message.content.map((part, partIndex) =>
                toOpenAiPart(part, `messages[${index}].content[${partIndex}]`, settings),
              ),
        ...(message.name === undefined ? {} : { name: message.name }),
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.text ?? null,
        ...(message.toolCalls && message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.text };
    default:
      throw invalidRequest(
        settings.provider,
        settings.model,
        `messages[${index}].role '${String((message as { role?: unknown }).role)}' is not system, user, assistant or tool`,
      );
  }
}

function toOpenAiPart(
  part: ContentPart,
  field: string,
  settings: OpenAiRequestSettings,
): ChatCompletionContentPart {
  const fail = (problem: string) =>
    invalidRequest(settings.provider, settings.model, `${field}: ${problem}`);
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image_url', image_url: { url: mediaUrl(part, 'image/png', fail) } };
    case 'audio': {
      if (!part.data)
        throw fail('an audio part needs base64 `data` (the chat API takes no audio URL)');
      const format =
        part.mimeType?.includes('mp3') || part.mimeType?.includes('mpeg') ? 'mp3' : 'wav';
      return { type: 'input_audio', input_audio: { data: part.data, format } };
    }
    case 'pdf':
      if (!part.data) throw fail('a pdf part needs base64 `data` (the chat API takes no file URL)');
      return {
        type: 'file',
        file: { file_data: `data:application/pdf;base64,${part.data}`, filename: 'document.pdf' },
      };
    default:
      throw fail(
        `a ${part.type} part cannot be sent to an OpenAI-compatible chat API (supported: text, image, audio, pdf)`,
      );
  }
}

function mediaUrl(
  part: { url?: string; data?: string; mimeType?: string },
  fallbackMime: string,
  fail: (p: string) => Error,
): string {
  if (part.url) return part.url;
  if (part.data) return `data:${part.mimeType ?? fallbackMime};base64,${part.data}`;
  throw fail('an image part needs `url` or base64 `data`');
}
