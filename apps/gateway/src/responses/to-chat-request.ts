import {
  type AiMessage,
  type ChatMessage,
  type ChatRequest,
  type ChatRequestParameters,
  type ContentPart,
  ROUTE_ATTRIBUTE,
  type ToolCall,
} from 'nest-model-router';
import { MODEL_ATTRIBUTE } from 'nest-model-router/core';
import type { ToolCallIds, ToolCallOrigin } from '../openai/tool-call-ids.js';
import type { ResponsesInputItem, ResponsesInputPart, ResponsesRequest } from './responses-body.js';
import { samplingParameters } from '../http/wire-sampling.js';

/**
 * Maps a validated Responses body to a ChatRequest: `instructions` first as a system message,
 * then the input items in order. Consecutive function calls become one assistant message (as
 * one turn of parallel calls), which a tool loop's route is read from, as on chat completions.
 */
export function toChatRequest(body: ResponsesRequest, ids: ToolCallIds): ChatRequest {
  const messages: ChatMessage[] = [];
  if (body.instructions) messages.push({ role: 'system', text: body.instructions });
  if (typeof body.input === 'string') {
    messages.push({ role: 'user', content: body.input });
  } else {
    for (const item of body.input) addItem(messages, item, ids);
  }
  const request: ChatRequest = { messages };
  const parameters = toParameters(body);
  if (Object.keys(parameters).length > 0) request.parameters = parameters;
  return request;
}

function toParameters(body: ResponsesRequest): ChatRequestParameters {
  const parameters: ChatRequestParameters = {};
  if (body.temperature != null) parameters.temperature = body.temperature;
  if (body.top_p != null) parameters.topP = body.top_p;
  if (body.max_output_tokens != null) parameters.maxOutputTokens = body.max_output_tokens;
  Object.assign(
    parameters,
    samplingParameters({
      user: body.user,
      parallel_tool_calls: body.parallel_tool_calls,
      reasoning_effort: body.reasoning?.effort,
      service_tier: body.service_tier,
      // the Responses API asks for logprobs by their number alone
      logprobs: body.top_logprobs != null ? true : null,
      top_logprobs: body.top_logprobs,
    }),
  );
  if (body.tools?.length) {
    parameters.tools = body.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      ...(tool.parameters ? { parameters: tool.parameters } : {}),
    }));
  }
  const choice = body.tool_choice;
  // null is an optional field sent as null (absent), as on chat completions
  if (typeof choice === 'object' && choice !== null) parameters.toolChoice = { name: choice.name };
  else if (choice) parameters.toolChoice = choice;
  const format = body.text?.format;
  if (format?.type === 'json_schema') {
    parameters.responseFormat = {
      type: 'json',
      jsonSchema: { name: format.name, schema: format.schema },
    };
  } else if (format?.type === 'json_object') {
    parameters.responseFormat = { type: 'json' };
  }
  return parameters;
}

function addItem(messages: ChatMessage[], item: ResponsesInputItem, ids: ToolCallIds): void {
  switch (item.type ?? 'message') {
    case 'message': {
      const message = item as Extract<ResponsesInputItem, { role: string }>;
      messages.push(toMessage(message.role, message.content));
      return;
    }
    case 'function_call': {
      const call = item as Extract<ResponsesInputItem, { type: 'function_call' }>;
      const { providerId, origin } = ids.decode(call.call_id);
      const toolCall: ToolCall = { id: providerId, name: call.name, arguments: call.arguments };
      const last = messages.at(-1);
      if (last?.role === 'assistant' && !last.text && last.toolCalls?.length) {
        last.toolCalls.push(toolCall);
      } else if (last?.role === 'assistant' && !last.toolCalls?.length) {
        // text then calls, as one turn (the Responses API lists them as separate items)
        Object.assign(last, { toolCalls: [toolCall] }, withOrigin(last, origin));
      } else {
        messages.push({
          role: 'assistant',
          toolCalls: [toolCall],
          ...withOrigin(undefined, origin),
        });
      }
      return;
    }
    case 'function_call_output': {
      const output = item as Extract<ResponsesInputItem, { type: 'function_call_output' }>;
      messages.push({
        role: 'tool',
        toolCallId: ids.decode(output.call_id).providerId,
        text:
          typeof output.output === 'string'
            ? output.output
            : output.output.map((part) => part.text).join('\n'),
      });
      return;
    }
    default:
      return; // reasoning items: a model's own notes, not part of what is sent on
  }
}

function withOrigin(
  message: AiMessage | undefined,
  origin: ToolCallOrigin | undefined,
): Partial<AiMessage> {
  if (!origin) return {};
  return {
    attributes: {
      ...message?.attributes,
      ...(origin.route ? { [ROUTE_ATTRIBUTE]: origin.route } : {}),
      ...(origin.model ? { [MODEL_ATTRIBUTE]: origin.model } : {}),
    },
  };
}

function toMessage(
  role: 'user' | 'assistant' | 'system' | 'developer',
  content: string | ResponsesInputPart[],
): ChatMessage {
  if (role === 'user') {
    return {
      role: 'user',
      content: typeof content === 'string' ? content : content.map(toPart),
    };
  }
  const text = typeof content === 'string' ? content : content.map(textOf).join('');
  return role === 'assistant' ? { role: 'assistant', text } : { role: 'system', text };
}

function textOf(part: ResponsesInputPart): string {
  if (part.type === 'refusal') return part.refusal;
  return 'text' in part ? part.text : '';
}

function toPart(part: ResponsesInputPart): ContentPart {
  switch (part.type) {
    case 'input_image': {
      const url = part.image_url!;
      const inline = /^data:([^;,]+);base64,(.*)$/s.exec(url);
      return inline
        ? { type: 'image', mimeType: inline[1]!, data: inline[2]! }
        : { type: 'image', url };
    }
    case 'input_file':
      return { type: 'pdf', data: part.file_data!.slice(part.file_data!.indexOf(',') + 1) };
    default:
      return { type: 'text', text: textOf(part) };
  }
}
