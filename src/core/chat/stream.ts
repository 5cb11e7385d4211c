import type { ChatCallOptions, ChatModel, ChatStreamEvent } from './chat-model.js';
import type { ChatRequest } from './request.js';
import type { ChatResponse } from './response.js';

/** Streams a model: its own `stream` when it has one, else `chat` as one text delta plus `complete`. */
export function streamModel(
  model: ChatModel,
  request: ChatRequest,
  options?: ChatCallOptions,
): AsyncIterable<ChatStreamEvent> {
  if (typeof model.stream === 'function') return model.stream(request, options);
  return streamFromChat(model, request, options);
}

export async function* streamFromChat(
  model: ChatModel,
  request: ChatRequest,
  options?: ChatCallOptions,
): AsyncGenerator<ChatStreamEvent> {
  yield* responseEvents(await model.chat(request, options));
}

/** A whole answer as a stream of it: its text as one delta, its tool calls, then `complete`. */
export function* responseEvents(response: ChatResponse): Generator<ChatStreamEvent> {
  if (response.aiMessage.text) yield { type: 'text-delta', text: response.aiMessage.text };
  for (const toolCall of response.aiMessage.toolCalls ?? []) yield { type: 'tool-call', toolCall };
  yield { type: 'complete', response };
}

/** Drains a stream into its final response; a stream that ends without `complete` is an error. */
export async function collectStream(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatResponse> {
  for await (const event of stream) {
    if (event.type === 'complete') return event.response;
  }
  throw new Error('The stream ended without a complete event');
}
