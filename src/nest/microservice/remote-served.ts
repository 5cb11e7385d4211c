import type { AiMessage, ChatMessage } from '../../core/chat/messages.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { MODEL_ATTRIBUTE } from '../../core/group/model-attribute.js';
import { ROUTE_ATTRIBUTE } from '../../core/routing/route-attribute.js';

/**
 * The AI message attribute under which RemoteChatModel keeps the route and model that served an
 * answer on the service. A local router or group that wraps the RemoteChatModel writes its own
 * names over `chat_model_route` / `chat_model_name` on the way out; this copy lets the next round
 * of a tool loop return to the service's route and model all the same.
 */
export const REMOTE_SERVED_ATTRIBUTE = 'model_router_remote';

interface RemoteServed {
  route?: string;
  model?: string;
}

/** The response with the service's route and model also kept under REMOTE_SERVED_ATTRIBUTE. */
export function keepRemoteServed(response: ChatResponse): ChatResponse {
  const attributes = response.aiMessage.attributes ?? {};
  const served: RemoteServed = {};
  if (typeof attributes[ROUTE_ATTRIBUTE] === 'string') served.route = attributes[ROUTE_ATTRIBUTE];
  if (typeof attributes[MODEL_ATTRIBUTE] === 'string') served.model = attributes[MODEL_ATTRIBUTE];
  if (served.route === undefined && served.model === undefined) return response;
  return {
    ...response,
    aiMessage: {
      ...response.aiMessage,
      attributes: { ...attributes, [REMOTE_SERVED_ATTRIBUTE]: served },
    },
  };
}

/**
 * The request as the service should see it: when the conversation ends with tool results, the AI
 * message that asked for them names the service's route and model again (a copy; the caller's
 * messages are left alone). Any other request is returned as it is.
 */
export function restoreRemoteServed(request: ChatRequest): ChatRequest {
  const { messages } = request;
  if (!Array.isArray(messages) || messages[messages.length - 1]?.role !== 'tool') return request;
  for (let index = messages.length - 2; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const served = servedOf(message);
    if (!served) return request;
    const restored: AiMessage = {
      ...message,
      attributes: {
        ...message.attributes,
        ...(served.route !== undefined ? { [ROUTE_ATTRIBUTE]: served.route } : {}),
        ...(served.model !== undefined ? { [MODEL_ATTRIBUTE]: served.model } : {}),
      },
    };
    const copy: ChatMessage[] = [...messages];
    copy[index] = restored;
    return { ...request, messages: copy };
  }
  return request;
}

function servedOf(message: AiMessage): RemoteServed | undefined {
  const value: unknown = message.attributes?.[REMOTE_SERVED_ATTRIBUTE];
  if (typeof value !== 'object' || value === null) return undefined;
  const { route, model } = value as { route?: unknown; model?: unknown };
  const served: RemoteServed = {};
  if (typeof route === 'string') served.route = route;
  if (typeof model === 'string') served.model = model;
  return served.route === undefined && served.model === undefined ? undefined : served;
}
