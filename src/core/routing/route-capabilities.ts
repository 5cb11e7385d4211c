import { supportsAll, type Capability } from '../chat/capability.js';
import type { ChatModel } from '../chat/chat-model.js';

export { requiredCapabilities, supportsAll } from '../chat/capability.js';

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
