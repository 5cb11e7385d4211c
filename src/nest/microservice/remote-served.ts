import type { AiMessage, ChatMessage } from '../../core/chat/messages.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { routeAttribute, modelAttribute } from '../../core/chat/call-attributes.js';
import { attributeKey } from '../../core/chat/attribute-key.js';

/**
 * The AI message attribute under which RemoteChatModel keeps the route and model that served an
 * answer on the service. A local router or group that wraps the RemoteChatModel writes its own
 * names over `chat_model_route` / `chat_model_name` on the way out; this copy lets the next round
 * of a tool loop return to the service's route and model all the same.
 */
export const REMOTE_SERVED_ATTRIBUTE = 'model_router_remote';
/** What it holds went through JSON: its fields are checked one by one where it is read. */
const remoteServedAttribute = attributeKey(
  REMOTE_SERVED_ATTRIBUTE,
  (value: unknown): value is { route?: unknown; model?: unknown } =>
    typeof value === 'object' && value !== null,
);

interface RemoteServed {
  route?: string;
  model?: string;
}

/** The response with the service's route and model also kept under REMOTE_SERVED_ATTRIBUTE. */
export function keepRemoteServed(response: ChatResponse): ChatResponse {
  const attributes = response.aiMessage.attributes ?? {};
  const served: RemoteServed = {};
  const route = routeAttribute.of(attributes);
  const model = modelAttribute.of(attributes);
  if (route !== undefined) served.route = route;
  if (model !== undefined) served.model = model;
  if (served.route === undefined && served.model === undefined) return response;
  return {
    ...response,
    aiMessage: {
      ...response.aiMessage,
      attributes: { ...attributes, ...remoteServedAttribute.entry(served) },
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
        ...(served.route !== undefined ? routeAttribute.entry(served.route) : {}),
        ...(served.model !== undefined ? modelAttribute.entry(served.model) : {}),
      },
    };
    const copy: ChatMessage[] = [...messages];
    copy[index] = restored;
    return { ...request, messages: copy };
  }
  return request;
}

function servedOf(message: AiMessage): RemoteServed | undefined {
  const value = remoteServedAttribute.of(message.attributes);
  if (value === undefined) return undefined;
  const served: RemoteServed = {};
  if (typeof value.route === 'string') served.route = value.route;
  if (typeof value.model === 'string') served.model = value.model;
  return served.route === undefined && served.model === undefined ? undefined : served;
}
