import { userMessageText, type ChatMessage } from '../chat/messages.js';
import type { DecisionInput } from './decision-model.js';

type ConversationTurn = { role: 'user' | 'assistant'; text: string };

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
  const lastUserText = textOf(messages[lastUser]);
  if (lastUserText.trim() === '') return undefined;
  if (maxMessages === 1) return lastUserText;

  const turns: ConversationTurn[] = [];
  // Walk backwards so only the turns that are kept get their text built.
  for (let i = lastUser; i >= 0 && turns.length < maxMessages; i--) {
    const message = messages[i];
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const text = textOf(message);
    if (text.trim() !== '') turns.push({ role: message.role, text });
  }
  return { messages: turns.toReversed() };
}

/** User messages: parts joined by newlines, media as `[attached <type>]`; AI messages: their text. */
function textOf(message: ChatMessage): string {
  if (message.role === 'user') return userMessageText(message);
  if (message.role === 'assistant') return message.text ?? '';
  return '';
}
