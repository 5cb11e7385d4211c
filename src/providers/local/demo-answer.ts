import type { ChatMessage } from '../../core/chat/messages.js';
import { userMessageText } from '../../core/chat/messages.js';
import type { ChatRequest } from '../../core/chat/request.js';

/** Who is answering, as the demo model states it in its reply. */
export interface DemoIdentity {
  router?: string;
  route?: string;
  model: string;
  probability?: number;
}

/**
 * The demo model's deterministic reply: it says who answered and restates the question, so a
 * person trying the gateway sees routing at work without any real model behind it.
 */
export function demoAnswerText(request: ChatRequest, who: DemoIdentity, style: DemoStyle): string {
  const question = lastUserText(request.messages) || '(no question)';
  const where = [who.router && `router '${who.router}'`, who.route && `route '${who.route}'`]
    .filter(Boolean)
    .join(', ');
  const confidence =
    who.probability === undefined ? '' : ` (route probability ${who.probability.toFixed(2)})`;
  const header = `Model '${who.model}'${where ? ` on ${where}` : ''}${confidence} answering.`;
  const toolResult = trailingToolResults(request.messages);
  if (toolResult) return `${header} The tool returned: ${toolResult}`;
  if (style === 'brief') return `${header} In short: ${summarize(question, 12)}`;
  return (
    `${header} A step-by-step look at "${summarize(question, 24)}": ` +
    '1) restate the problem, 2) split it into parts, 3) solve each part, 4) check the result.'
  );
}

export type DemoStyle = 'brief' | 'thorough';

export function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') return userMessageText(message).trim();
  }
  return '';
}

function trailingToolResults(messages: readonly ChatMessage[]): string | undefined {
  const results: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === 'tool'; i--) {
    const message = messages[i]!;
    if (message.role === 'tool') results.unshift(message.text);
  }
  return results.length ? results.join('; ') : undefined;
}

/** The first `words` words of `text`, and '…' if it has more; reads no further (8 MiB bodies). */
function summarize(text: string, words: number): string {
  const word = /\S+/g;
  const taken: string[] = [];
  for (let match = word.exec(text); match !== null; match = word.exec(text)) {
    if (taken.length === words) return `${taken.join(' ')}…`;
    taken.push(match[0]);
  }
  return taken.join(' ');
}

/**
 * How many words (runs of what `/\S/` calls non-space) `text` has, without making each a string:
 * `text.match(/\S+/g)` on a body of 8 MiB allocated a million strings for one count.
 */
export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const space = isSpace(code);
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

/** Whether a UTF-16 code unit is one of what `/\s/` matches. */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
