import type { DowngradeTarget } from '../../core/budget/budget-downgrade.js';
import { ROUTER_ATTRIBUTE, routerAttribute } from '../../core/chat/call-attributes.js';
import type { ModelRouterRegistry } from '../module/model-router-registry.js';
import type { DirectModelChecks } from './direct-model-checks.js';

/**
 * Where a budget's `fallback` sends a call: a router (the call then names it as its router, so
 * budgets scoped to it apply), else a registered model under the checks of a model called
 * directly (no router attribute: it is not the refused router's call any more).
 */
export function downgradeTarget(
  name: string,
  registry: ModelRouterRegistry,
  direct: DirectModelChecks,
): DowngradeTarget | undefined {
  const router = registry.getRouter(name);
  if (router) {
    return { model: router, attributes: (a) => ({ ...a, ...routerAttribute.entry(name) }) };
  }
  const model = registry.getModel(name);
  if (!model) return undefined;
  return {
    model: direct.wrap(name, model),
    attributes: ({ [ROUTER_ATTRIBUTE]: _router, ...others }) => others,
  };
}
