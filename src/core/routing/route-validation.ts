import { isChatModel, type ChatModel } from '../chat/chat-model.js';
import { closestName } from '../errors/closest-name.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { ChatModelRoute } from './chat-model-route.js';

/** A route that passed validation: the model that serves it and the read-only view routers get. */
export interface ConfiguredRoute {
  readonly name: string;
  readonly model: ChatModel;
  readonly view: ChatModelRoute;
}

const ROUTE_SHAPE = '{ name, description?, examples?, model }';

/**
 * Checks every route definition, in order, and builds its router view. Values are described by
 * type only: a route's model may hold credentials, so it is never printed.
 */
export function validateRouteDefinitions(routes: unknown): ConfiguredRoute[] {
  if (!Array.isArray(routes) || routes.length === 0) {
    throw new InvalidConfigurationException(
      `routes must be a non-empty array of route definitions ${ROUTE_SHAPE}; got ${typeName(routes)}. ` +
        'Add at least one route.',
    );
  }
  const seen = new Set<string>();
  return routes.map((definition: unknown, index) => {
    const configured = validateRouteDefinition(definition, index);
    if (seen.has(configured.name)) {
      throw new InvalidConfigurationException(
        `There is more than one route named '${configured.name}' (routes[${index}]); ` +
          'route names must be unique: rename or remove one of them.',
      );
    }
    seen.add(configured.name);
    return configured;
  });
}

/** The configured default must name one of the routes. */
export function validateDefaultRoute(
  defaultRoute: unknown,
  routes: readonly ConfiguredRoute[],
): string {
  const names = routes.map((route) => `'${route.name}'`).join(', ');
  if (typeof defaultRoute !== 'string' || defaultRoute.trim() === '') {
    throw new InvalidConfigurationException(
      `defaultRoute must be the name of one of the routes (${names}); got ${typeName(defaultRoute)}. ` +
        'Set defaultRoute to the route that serves requests the router cannot place.',
    );
  }
  if (!routes.some((route) => route.name === defaultRoute)) {
    const meant = closestName(
      defaultRoute,
      routes.map((route) => route.name),
    );
    throw new InvalidConfigurationException(
      `The default route '${defaultRoute}' is not one of the configured routes (${names})` +
        (meant === undefined ? '' : ` (did you mean '${meant}'?)`) +
        '; set defaultRoute to one of them or add a route with that name.',
    );
  }
  return defaultRoute;
}

function validateRouteDefinition(definition: unknown, index: number): ConfiguredRoute {
  if (typeof definition !== 'object' || definition === null) {
    throw new InvalidConfigurationException(
      `routes[${index}] must be a route definition ${ROUTE_SHAPE}; got ${typeName(definition)}.`,
    );
  }
  const { name, description, examples, model } = definition as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InvalidConfigurationException(
      `routes[${index}]: the route name must be a non-blank string; got ${typeName(name)}. ` +
        "Give every route a unique name, such as 'simple'.",
    );
  }
  if (!isChatModel(model)) {
    throw new InvalidConfigurationException(
      `The model of route '${name}' is missing or has no chat() function (got ${typeName(model)}); ` +
        `set routes[${index}].model to a ChatModel, e.g. an object with chat(request, options).`,
    );
  }
  const view: ChatModelRoute = {
    name,
    descriptions: Object.freeze(descriptionsOf(name, description)),
    ...examplesOf(name, examples),
  };
  return Object.freeze({ name, model, view: Object.freeze(view) });
}

function descriptionsOf(route: string, description: unknown): string[] {
  if (description === undefined) return [];
  const descriptions = Array.isArray(description) ? description : [description];
  for (const item of descriptions) {
    if (typeof item !== 'string' || item.trim() === '') {
      throw new InvalidConfigurationException(
        `The description of route '${route}' must be a non-blank string or an array of non-blank ` +
          `strings; found ${typeName(item)}. Describe what the route is for, or remove the description.`,
      );
    }
  }
  return [...(descriptions as string[])];
}

/** `examples` stays absent when the route has none, so routers can tell "no examples" apart. */
function examplesOf(route: string, examples: unknown): { examples?: readonly string[] } {
  if (examples === undefined) return {};
  if (!Array.isArray(examples) || examples.some((e) => typeof e !== 'string' || e.trim() === '')) {
    throw new InvalidConfigurationException(
      `The examples of route '${route}' must be an array of non-blank strings (sample user ` +
        'messages for the route); remove blank entries or the examples field.',
    );
  }
  return examples.length === 0 ? {} : { examples: Object.freeze([...(examples as string[])]) };
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  if (typeof value === 'string') return value.trim() === '' ? 'a blank string' : 'a string';
  return typeof value === 'undefined' ? 'nothing' : `a value of type ${typeof value}`;
}
