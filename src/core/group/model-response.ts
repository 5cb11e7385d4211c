import type { ChatMessage } from '../chat/messages.js';
import type { ChatResponse } from '../chat/response.js';
import { toolLoopAttribute } from '../chat/tool-loop-attribute.js';
import { ModelRouterException } from '../errors/exceptions.js';
import { modelAttribute } from '../chat/call-attributes.js';

/** A model answered with something that is not a ChatResponse: that model's failure. */
export class InvalidModelResponseException extends ModelRouterException {}

export function assertChatResponse(response: unknown, model: string): ChatResponse {
  const aiMessage = (response as { aiMessage?: unknown } | null | undefined)?.aiMessage;
  if (typeof aiMessage !== 'object' || aiMessage === null) {
    throw new InvalidModelResponseException(
      `Model '${model}' answered without an aiMessage; a ChatModel must resolve to a ChatResponse ` +
        "such as { aiMessage: { role: 'assistant', text } }.",
    );
  }
  return response as ChatResponse;
}

/**
 * An answer that asks for tools carries the name of the model that asked, so the tool loop's
 * next round returns to it (its provider may hold state, its prompt cache is warm). Other
 * answers are returned as the model gave them.
 */
export function withModelAttribute(response: ChatResponse, model: string): ChatResponse {
  if (!response.aiMessage.toolCalls?.length) return response;
  return {
    ...response,
    aiMessage: {
      ...response.aiMessage,
      attributes: { ...response.aiMessage.attributes, ...modelAttribute.entry(model) },
    },
  };
}

/**
 * The model a tool loop should stay on: when the conversation ends with a tool result, the model
 * named on the nearest earlier AI message (the one that asked for the tool).
 */
export function toolLoopModelName(messages: readonly ChatMessage[]): string | undefined {
  return toolLoopAttribute(messages, modelAttribute);
}
