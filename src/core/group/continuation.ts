import { Capability, capabilitiesOf } from '../chat/capability.js';
import type { ChatMessage } from '../chat/messages.js';
import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';

/** Whether a model declares that it continues a trailing assistant message (prefill). */
export function acceptsPrefill(model: ChatModelWrapper): boolean {
  return capabilitiesOf(model.model).has(Capability.ASSISTANT_PREFILL);
}

/**
 * The request that asks the next model to continue `partial`: the conversation plus the partial
 * answer as a trailing assistant message (joined to the caller's own prefill, if it had one).
 */
export function withPrefill(request: ChatRequest, partial: string): ChatRequest {
  const messages = request.messages;
  const last = messages[messages.length - 1];
  const prefilled: ChatMessage[] =
    last?.role === 'assistant' && !last.toolCalls?.length
      ? [...messages.slice(0, -1), { ...last, text: (last.text ?? '') + partial }]
      : [...messages, { role: 'assistant', text: partial }];
  return { ...request, messages: prefilled };
}

/**
 * The final response of a continued stream: the continuing model's response whose text is the
 * whole answer (what the caller received before plus what the continuation added).
 */
export function joinContinuation(
  response: ChatResponse,
  before: string,
  streamed: string,
): ChatResponse {
  const own = response.aiMessage.text;
  // some providers repeat the prefill in their final text; accept that only when it is exact
  const text = own !== undefined && own === before + streamed ? own : before + (own ?? streamed);
  return { ...response, aiMessage: { ...response.aiMessage, text } };
}
