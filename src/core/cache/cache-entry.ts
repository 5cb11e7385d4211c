import type { ChatStreamEvent } from '../chat/chat-model.js';
import type { ChatResponse } from '../chat/response.js';

/** A chat event that is part of an answer (not its `complete`). */
export type AnswerChunk = Exclude<ChatStreamEvent, { type: 'complete' }>;

/**
 * One stored answer: the response, and for an answer that was streamed, its chunks as they
 * came, so a streamed hit is replayed with the original chunking.
 */
export interface CachedAnswer {
  response: ChatResponse;
  chunks?: AnswerChunk[];
  /** Epoch ms when it was stored. */
  storedAt: number;
}

/**
 * Whether a response is a complete answer worth serving again: it ended normally (`stop`, or
 * tool calls) — not cut at the token limit, not filtered, not an error.
 */
export function isCompleteAnswer(response: ChatResponse): boolean {
  const reason = response.finishReason;
  if (reason !== undefined && reason !== 'stop' && reason !== 'tool_calls') return false;
  const { text, toolCalls } = response.aiMessage;
  return (text !== undefined && text !== '') || (toolCalls !== undefined && toolCalls.length > 0);
}

/** The events that replay an answer: its chunks as stored, else its text split into words. */
export function replayEvents(answer: CachedAnswer): AnswerChunk[] {
  if (answer.chunks !== undefined) return answer.chunks;
  const events: AnswerChunk[] = [];
  const text = answer.response.aiMessage.text;
  // a non-streamed answer, streamed: a few words per chunk, as a model would send them
  if (text)
    for (const piece of text.match(/\S+\s*|\s+/g) ?? [text])
      events.push({ type: 'text-delta', text: piece });
  for (const toolCall of answer.response.aiMessage.toolCalls ?? []) {
    events.push({ type: 'tool-call', toolCall });
  }
  return events;
}
