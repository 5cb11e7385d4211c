import {
  type ChatMessage,
  type ContentPart,
  type ChatRequest,
  type ChatRequestParameters,
  ROUTE_ATTRIBUTE,
} from 'nest-model-router';
import { MODEL_ATTRIBUTE } from 'nest-model-router/core';
import { processToolCallIds, type ToolCallIds } from './tool-call-ids.js';
import { samplingParameters } from '../http/wire-sampling.js';
import type {
  WireChatCompletionRequest,
  WireContentPart,
  WireMessage,
  WireTextContent,
} from './chat-completion-body.js';

/**
 * Maps a validated OpenAI chat completions body to the library's ChatRequest. An optional field
 * sent as `null` (as OpenAI accepts) is absent.
 */
export function toChatRequest(
  body: WireChatCompletionRequest,
  ids: ToolCallIds = processToolCallIds,
): ChatRequest {
  const parameters: ChatRequestParameters = {};
  if (body.temperature != null) parameters.temperature = body.temperature;
  if (body.top_p != null) parameters.topP = body.top_p;
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (maxTokens != null) parameters.maxOutputTokens = maxTokens;
  if (body.stop != null) {
    parameters.stopSequences = typeof body.stop === 'string' ? [body.stop] : body.stop;
  }
  if (body.tools?.length) {
    parameters.tools = body.tools.map((tool) => ({
      name: tool.function.name,
      ...(tool.function.description ? { description: tool.function.description } : {}),
      ...(tool.function.parameters ? { parameters: tool.function.parameters } : {}),
    }));
  }
  const choice = body.tool_choice;
  if (typeof choice === 'object' && choice !== null) {
    parameters.toolChoice = { name: choice.function.name };
  } else if (choice) {
    parameters.toolChoice = choice;
  }
  const format = body.response_format;
  if (format?.type === 'json_schema') {
    parameters.responseFormat = {
      type: 'json',
      jsonSchema: { name: format.json_schema.name, schema: format.json_schema.schema ?? {} },
    };
  } else if (format?.type === 'json_object') {
    parameters.responseFormat = { type: 'json' };
  }
  const request: ChatRequest = { messages: body.messages.map((m) => toChatMessage(m, ids)) };
  if (body.prompt_cache_key != null) parameters.promptCacheKey = body.prompt_cache_key;
  Object.assign(parameters, samplingParameters(body));
  if (Object.keys(parameters).length > 0) request.parameters = parameters;
  return request;
}

function toChatMessage(message: WireMessage, ids: ToolCallIds): ChatMessage {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', text: textOf(message.content) };
    case 'user':
      return {
        role: 'user',
        content:
          typeof message.content === 'string' ? message.content : message.content.map(toPart),
        ...(message.name ? { name: message.name } : {}),
      };
    case 'assistant': {
      const toolCalls = message.tool_calls?.map((call) => ({
        decoded: ids.decode(call.id),
        name: call.function.name,
        arguments: call.function.arguments,
      }));
      const origin = toolCalls?.find((call) => call.decoded.origin)?.decoded.origin;
      return {
        role: 'assistant',
        ...(message.content ? { text: textOf(message.content) } : {}),
        ...(toolCalls?.length
          ? {
              toolCalls: toolCalls.map((call) => ({
                id: call.decoded.providerId,
                name: call.name,
                arguments: call.arguments,
              })),
            }
          : {}),
        ...(origin
          ? {
              attributes: {
                ...(origin.route ? { [ROUTE_ATTRIBUTE]: origin.route } : {}),
                ...(origin.model ? { [MODEL_ATTRIBUTE]: origin.model } : {}),
              },
            }
          : {}),
      };
    }
    case 'tool':
      return {
        role: 'tool',
        toolCallId: ids.decode(message.tool_call_id).providerId,
        text: textOf(message.content),
      };
  }
}

/** The text of a text-only content: parts joined by newlines. */
function textOf(content: WireTextContent): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('\n');
}

function toPart(part: WireContentPart): ContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image_url':
      return imagePart(part.image_url.url);
    case 'input_audio':
      return {
        type: 'audio',
        data: part.input_audio.data,
        mimeType: `audio/${part.input_audio.format}`,
      };
    case 'file':
      return { type: 'pdf', ...(part.file.file_data ? { data: part.file.file_data } : {}) };
  }
}

/** `data:` URLs carry the bytes inline; anything else is a link. */
function imagePart(url: string): ContentPart {
  const inline = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return inline
    ? { type: 'image', mimeType: inline[1]!, data: inline[2]! }
    : { type: 'image', url };
}
