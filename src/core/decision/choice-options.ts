import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { ChatModelRoute } from '../routing/chat-model-route.js';
import type { ChoiceOption } from './decision-model.js';

/** The options offered for a set of routes, and which route owns each option. */
export interface ChoiceOptions {
  readonly options: ChoiceOption[];
  /** Option name → route name. A Map, so option names like `__proto__` stay plain keys. */
  readonly routeOf: ReadonlyMap<string, string>;
  /** The routes, in the order given (earlier wins ties). */
  readonly routeNames: readonly string[];
}

/**
 * One option per description, in route order: a route without descriptions is described by its
 * name; a route with k ≥ 2 descriptions offers `route#1 … route#k`. Options of a route with
 * examples carry them; the others have no `examples` key.
 */
export function buildChoiceOptions(routes: readonly ChatModelRoute[]): ChoiceOptions {
  const options: ChoiceOption[] = [];
  const routeOf = new Map<string, string>();
  for (const route of routes) {
    for (const option of optionsOf(route)) {
      if (routeOf.has(option.name)) {
        throw new InvalidConfigurationException(
          `Decision option '${option.name}' occurs more than once (a route with several descriptions ` +
            `offers '<route>#1', '<route>#2', …); rename the route so every option name is unique`,
        );
      }
      routeOf.set(option.name, route.name);
      options.push(option);
    }
  }
  return { options, routeOf, routeNames: routes.map((route) => route.name) };
}

function optionsOf(route: ChatModelRoute): ChoiceOption[] {
  const descriptions = route.descriptions ?? [];
  const named =
    descriptions.length === 0
      ? [{ name: route.name, description: route.name }]
      : descriptions.length === 1
        ? [{ name: route.name, description: descriptions[0] }]
        : descriptions.map((description, i) => ({ name: `${route.name}#${i + 1}`, description }));
  const examples = route.examples;
  if (examples === undefined || examples.length === 0) return named;
  return named.map((option) => ({ ...option, examples }));
}
