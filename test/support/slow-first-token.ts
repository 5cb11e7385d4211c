import type { ChatModel, ChatStreamEvent } from '../../src/core/chat/chat-model.js';
import { userMessage } from '../../src/core/chat/messages.js';
import type { ChatRequest } from '../../src/core/chat/request.js';
import type { ChatResponse } from '../../src/core/chat/response.js';
import { withResilience } from '../../src/core/resilience/resilient-chat-model.js';

/** What the shared-tail specs (latency sketch through the state store) stream and learn from. */
const request: ChatRequest = { messages: [userMessage('Hello')] };
const answer = (text: string): ChatResponse => ({ aiMessage: { role: 'assistant', text } });

/**
 * A resilient model that thinks 30 s before its first token, on a clock of its own (nobody
 * waits): what a replica learns of its first-token wait, the other replicas should use.
 */
export function thinker(name = 'thinker') {
  let now = Date.now();
  const model: ChatModel = {
    chat: async () => answer('thought'),
    async *stream(): AsyncGenerator<ChatStreamEvent> {
      now += 30_000;
      yield { type: 'text-delta', text: 'thought' };
      yield { type: 'complete', response: answer('thought') };
    },
  };
  return withResilience(model, { name, retry: { maxAttempts: 1 }, clock: () => now });
}

/** Streams `times` calls of `model` to their end, one after the other. */
export async function streamed(model: ChatModel, times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    for await (const event of model.stream!(request)) if (event.type === 'complete') break;
  }
}
