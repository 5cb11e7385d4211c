import type { ChatMessage } from '../chat/messages.js';
import { ROUTE_ATTRIBUTE } from './route-attribute.js';

/**
 * The route a tool loop should stay on: when the conversation ends with a tool result, the route
 * recorded on the nearest earlier AI message (the one that asked for the tool). Only that message
 * counts: an older AI message may belong to an earlier turn routed elsewhere. Reads plain data,
 * so it works on messages that went through JSON.
 */
export function toolLoopRouteName(messages: readonly ChatMessage[]): string | undefined {
  if (messages[messages.length - 1]?.role !== 'tool') return undefined;
  for (let index = messages.length - 2; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const attributes: unknown = message.attributes;
    if (typeof attributes !== 'object' || attributes === null) return undefined;
    const route = (attributes as Record<string, unknown>)[ROUTE_ATTRIBUTE];
    return typeof route === 'string' ? route : undefined;
  }
  return undefined;
}
