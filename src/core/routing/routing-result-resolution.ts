import type { Capability } from '../chat/capability.js';
import { RoutingException } from '../errors/exceptions.js';
import { ChatModelRoutingResult } from './chat-model-routing-result.js';
import type { ConfiguredRoute } from './route-validation.js';
import { quoteNames } from '../errors/quote-names.js';

export interface RouteChoiceContext {
  /** Every configured route, by name. */
  readonly routes: ReadonlyMap<string, ConfiguredRoute>;
  /** The routes the router was offered, in order. */
  readonly candidates: readonly ConfiguredRoute[];
  /** What `ChatModelRoutingResult.defaultRoute()` stands for in this call. */
  readonly defaultRoute: ConfiguredRoute;
  readonly required: ReadonlySet<Capability>;
}

/** Turns a router's answer into the route to call, or explains why it cannot be carried out. */
export function resolveRoutingResult(
  result: unknown,
  context: RouteChoiceContext,
): ConfiguredRoute {
  if (!(result instanceof ChatModelRoutingResult)) {
    throw new RoutingException(
      `The router returned ${describeResult(result)} instead of a ChatModelRoutingResult; return ` +
        'ChatModelRoutingResult.route(name) to pick a route, or ChatModelRoutingResult.defaultRoute() ' +
        'to use the default route.',
    );
  }
  if (result.isDefaultRoute || result.routeName === undefined) return context.defaultRoute;
  const name = result.routeName;
  const route = context.routes.get(name);
  if (!route) {
    throw new RoutingException(
      `The router chose unknown route '${name}'; the configured routes are ` +
        `${quoteNames([...context.routes.keys()])}. Return one of them, or ` +
        'ChatModelRoutingResult.defaultRoute().',
    );
  }
  if (!context.candidates.includes(route)) {
    throw new RoutingException(
      `Route '${name}' does not support ${[...context.required].join(', ')}, which this request ` +
        `requires; choose one of the candidate routes the router was given ` +
        `(${quoteNames(context.candidates.map((candidate) => candidate.name))}), or ` +
        'ChatModelRoutingResult.defaultRoute().',
    );
  }
  return route;
}

function describeResult(result: unknown): string {
  if (result === null || result === undefined) return String(result);
  if (typeof result === 'string' && result.length <= 60) {
    return `the string '${result}' (wrap a name as ChatModelRoutingResult.route('${result}'))`;
  }
  return typeof result === 'object' ? 'a plain object' : `a ${typeof result}`;
}
