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

function summarize(text: string, words: number): string {
  const all = text.split(/\s+/).filter(Boolean);
  return all.length <= words ? all.join(' ') : `${all.slice(0, words).join(' ')}…`;
}
