import type { ChatResponse } from '../chat/response.js';
import { RoutingException } from '../errors/exceptions.js';
import { typeName } from './route-validation.js';
import { decisionAttribute, routeAttribute } from '../chat/call-attributes.js';

/**
 * A copy of the response whose AI message names the route that served it. The model's own object
 * is left alone (it may be cached or shared). Nested routers each overwrite the attribute on the
 * way out, so the outermost router's route name is what the caller sees.
 */
export function withRouteAttribute(
  response: ChatResponse,
  route: string,
  decisionId?: string,
): ChatResponse {
  const aiMessage: unknown = (response as { aiMessage?: unknown } | null | undefined)?.aiMessage;
  if (typeof aiMessage !== 'object' || aiMessage === null) {
    throw new RoutingException(
      `The model of route '${route}' answered with ${typeName(response)} that has no aiMessage; ` +
        "a ChatModel must resolve to a ChatResponse such as { aiMessage: { role: 'assistant', text } }.",
    );
  }
  return {
    ...response,
    aiMessage: {
      ...response.aiMessage,
      attributes: {
        ...response.aiMessage.attributes,
        ...routeAttribute.entry(route),
        ...(decisionId !== undefined ? decisionAttribute.entry(decisionId) : {}),
      },
    },
  };
}
