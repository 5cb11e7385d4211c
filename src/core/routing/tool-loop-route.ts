import type { ChatMessage } from '../chat/messages.js';
import { toolLoopAttribute } from '../chat/tool-loop-attribute.js';
import { routeAttribute } from '../chat/call-attributes.js';

/**
 * The route a tool loop should stay on: when the conversation ends with a tool result, the route
 * recorded on the nearest earlier AI message (the one that asked for the tool).
 */
export function toolLoopRouteName(messages: readonly ChatMessage[]): string | undefined {
  return toolLoopAttribute(messages, routeAttribute);
}
