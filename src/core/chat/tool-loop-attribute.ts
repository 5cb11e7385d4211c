import type { AttributeKey } from './attribute-key.js';
import type { ChatMessage } from './messages.js';

/**
 * A string attribute of the AI message that asked for the tools, when the conversation ends with
 * their results: the tool loop's next round reads where the previous one ran from it. Only the
 * nearest earlier AI message counts: an older one may belong to an earlier turn that ran
 * elsewhere. Reads plain data, so it works on messages that went through JSON.
 */
export function toolLoopAttribute(
  messages: readonly ChatMessage[],
  key: AttributeKey<string>,
): string | undefined {
  if (messages[messages.length - 1]?.role !== 'tool') return undefined;
  for (let index = messages.length - 2; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const attributes: unknown = message.attributes;
    if (typeof attributes !== 'object' || attributes === null) return undefined;
    return key.of(attributes as Record<string, unknown>);
  }
  return undefined;
}
