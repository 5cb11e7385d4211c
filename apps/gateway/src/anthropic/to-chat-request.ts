import {
  type ChatMessage,
  type ChatRequest,
  type ChatRequestParameters,
  type ContentPart,
  ROUTE_ATTRIBUTE,
  type ToolCall,
} from 'nest-model-router';
import { MODEL_ATTRIBUTE } from 'nest-model-router/core';
import type { ToolCallIds, ToolCallOrigin } from '../openai/tool-call-ids.js';
import type {
  AnthropicBlock,
  AnthropicDocument,
  AnthropicMessage,
  AnthropicMessagesRequest,
  AnthropicSource,
} from './messages-body.js';

/**
 * Maps a validated Messages body to a ChatRequest. A user turn's tool_result blocks become tool
 * messages (in order, before the turn's own text), an assistant turn's tool_use blocks its tool
 * calls, whose ids carry the route that made them, as on the OpenAI surfaces.
 */
export function toChatRequest(body: AnthropicMessagesRequest, ids: ToolCallIds): ChatRequest {
  const messages: ChatMessage[] = [];
  const system =
    typeof body.system === 'string' ? body.system : body.system?.map((b) => b.text).join('\n');
  if (system) messages.push({ role: 'system', text: system });
  for (const message of body.messages) messages.push(...toMessages(message, ids));
  const request: ChatRequest = { messages };
  const parameters = toParameters(body);
  if (Object.keys(parameters).length > 0) request.parameters = parameters;
  return request;
}

function toParameters(body: AnthropicMessagesRequest): ChatRequestParameters {
  const parameters: ChatRequestParameters = { maxOutputTokens: body.max_tokens };
  if (body.temperature != null) parameters.temperature = body.temperature;
  if (body.top_p != null) parameters.topP = body.top_p;
  if (body.top_k != null) parameters.topK = body.top_k;
  if (body.metadata?.user_id != null) parameters.user = body.metadata.user_id;
  if (body.tool_choice?.disable_parallel_tool_use) parameters.parallelToolCalls = false;
  if (body.stop_sequences?.length) parameters.stopSequences = body.stop_sequences;
  if (body.tools?.length) {
    parameters.tools = body.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.input_schema,
    }));
  }
  const choice = body.tool_choice;
  if (choice?.type === 'tool') parameters.toolChoice = { name: choice.name };
  else if (choice?.type === 'any') parameters.toolChoice = 'required';
  else if (choice) parameters.toolChoice = choice.type;
  const format = body.output_config?.format ?? body.output_format;
  // Anthropic's format has no name; OpenAI-shaped providers need one
  if (format)
    parameters.responseFormat = {
      type: 'json',
      jsonSchema: { name: 'output', schema: format.schema },
    };
  return parameters;
}

function toMessages(message: AnthropicMessage, ids: ToolCallIds): ChatMessage[] {
  const blocks: AnthropicBlock[] =
    typeof message.content === 'string'
      ? [{ type: 'text', text: message.content }]
      : message.content;
  if (message.role === 'assistant') {
    const text = blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
    let origin: ToolCallOrigin | undefined;
    const toolCalls: ToolCall[] = [];
    for (const block of blocks) {
      if (block.type !== 'tool_use') continue;
      const decoded = ids.decode(block.id);
      origin ??= decoded.origin;
      toolCalls.push({
        id: decoded.providerId,
        name: block.name,
        arguments: JSON.stringify(block.input),
      });
    }
    return [
      {
        role: 'assistant',
        ...(text ? { text } : {}),
        ...(toolCalls.length ? { toolCalls } : {}),
        ...(origin
          ? {
              attributes: {
                ...(origin.route ? { [ROUTE_ATTRIBUTE]: origin.route } : {}),
                ...(origin.model ? { [MODEL_ATTRIBUTE]: origin.model } : {}),
              },
            }
          : {}),
      },
    ];
  }
  const out: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      const content = block.content ?? '';
      const text = typeof content === 'string' ? content : content.map((b) => b.text).join('\n');
      out.push({
        role: 'tool',
        toolCallId: ids.decode(block.tool_use_id).providerId,
        // the library's tool result has no error flag: say so in the text the model reads
        text: block.is_error ? `Error: ${text}` : text,
      });
    } else if (block.type === 'text') {
      parts.push({ type: 'text', text: block.text });
    } else if (block.type === 'image') {
      parts.push(mediaPart('image', block.source));
    } else if (block.type === 'document') {
      parts.push(documentPart(block));
    }
  }
  if (parts.length > 0) {
    const onlyText = parts.every((part) => part.type === 'text');
    out.push({
      role: 'user',
      content: onlyText ? parts.map((part) => (part as { text: string }).text).join('\n') : parts,
    });
  }
  return out;
}

function documentPart(block: AnthropicDocument): ContentPart {
  const { source, title } = block;
  if (source.type === 'base64' || source.type === 'url') return mediaPart('pdf', source);
  const content = source.type === 'text' ? source.data : source.content;
  const text = typeof content === 'string' ? content : content.map((b) => b.text).join('\n');
  return { type: 'text', text: title ? `${title}\n\n${text}` : text };
}

function mediaPart(type: 'image' | 'pdf', source: AnthropicSource): ContentPart {
  return source.type === 'url'
    ? { type, url: source.url }
    : { type, data: source.data, mimeType: source.media_type };
}
