import { Capability, capabilitiesOf } from '../chat/capability.js';
import type { ChatModel } from '../chat/chat-model.js';
import type { ChatRequest } from '../chat/request.js';

const NONE: ReadonlySet<Capability> = new Set();

/** Only a JSON response format with a schema needs a capability that not every model has. */
export function requiredCapabilities(request: ChatRequest): ReadonlySet<Capability> {
  const format = request.parameters?.responseFormat;
  return format?.type === 'json' && format.jsonSchema
    ? new Set([Capability.RESPONSE_FORMAT_JSON_SCHEMA])
    : NONE;
}

export function supportsAll(model: ChatModel, required: ReadonlySet<Capability>): boolean {
  if (required.size === 0) return true;
  const supported = capabilitiesOf(model);
  return [...required].every((capability) => supported.has(capability));
}

/**
 * The routes declaring every required capability, in order. When none does, every route is a
 * candidate: a model may still honour the format without declaring it, which beats failing.
 */
export function candidateRoutes<R extends { readonly model: ChatModel }>(
  routes: readonly R[],
  required: ReadonlySet<Capability>,
): readonly R[] {
  if (required.size === 0) return routes;
  const supporting = routes.filter((route) => supportsAll(route.model, required));
  return supporting.length > 0 ? supporting : routes;
}
