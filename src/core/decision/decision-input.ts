import { userMessageText, type ChatMessage } from '../chat/messages.js';
import type { DecisionInput } from './decision-model.js';

type ConversationTurn = { role: 'user' | 'assistant'; text: string };

/**
 * Characters of one turn a decision model reads: its start and its end. A pasted document or a
 * megabyte of code costs a decision (embedding, a judge's prompt) in proportion to its size, and
 * what it asks for is almost always said before or after the paste.
 */
export const MAX_DECISION_TURN_CHARS = 8_192;
const ELISION = '\n…\n';

/**
 * What the decision model reads: the last user message's text when `maxMessages` is 1, otherwise
 * the last `maxMessages` user/assistant turns with text, up to and including the last user message.
 * `undefined` when there is no user message or the last one is blank: nothing to decide on.
 */
export function buildDecisionInput(
  messages: readonly ChatMessage[],
  maxMessages: number,
): DecisionInput | undefined {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  if (lastUser < 0) return undefined;
  const lastUserText = bounded(textOf(messages[lastUser]));
  if (lastUserText.trim() === '') return undefined;
  if (maxMessages === 1) return lastUserText;

  const turns: ConversationTurn[] = [];
  // Walk backwards so only the turns that are kept get their text built.
  for (let i = lastUser; i >= 0 && turns.length < maxMessages; i--) {
    const message = messages[i];
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const text = i === lastUser ? lastUserText : bounded(textOf(message));
    if (text.trim() !== '') turns.push({ role: message.role, text });
  }
  return { messages: turns.toReversed() };
}

function bounded(text: string): string {
  if (text.length <= MAX_DECISION_TURN_CHARS) return text;
  const half = (MAX_DECISION_TURN_CHARS - ELISION.length) >> 1;
  return text.slice(0, half) + ELISION + text.slice(text.length - half);
}

/** User messages: parts joined by newlines, media as `[attached <type>]`; AI messages: their text. */
function textOf(message: ChatMessage): string {
  if (message.role === 'user') return userMessageText(message);
  if (message.role === 'assistant') return message.text ?? '';
  return '';
}
