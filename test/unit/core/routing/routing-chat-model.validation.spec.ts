import { describe, expect, it, jest } from '@jest/globals';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import type {
  ChatModelRoute,
  RouteDefinition,
} from '../../../../src/core/routing/chat-model-route.js';
import type {
  ChatModelRouter,
  ChatModelRouterFunction,
} from '../../../../src/core/routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import {
  RoutingChatModel,
  type RoutingChatModelOptions,
} from '../../../../src/core/routing/routing-chat-model.js';
import { fakeModel, routeTo } from './fakes.js';

const simple = () => ({ name: 'simple', description: 'Small talk', model: fakeModel('simple') });
const complex = () => ({ name: 'complex', description: 'Hard work', model: fakeModel('complex') });

function build(overrides: Record<string, unknown>): RoutingChatModel {
  const options = {
    routes: [simple(), complex()],
    router: routeTo('simple'),
    defaultRoute: 'simple',
    ...overrides,
  };
  return new RoutingChatModel(options as unknown as RoutingChatModelOptions);
}

function configurationError(overrides: Record<string, unknown>): InvalidConfigurationException {
  try {
    build(overrides);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfigurationException);
    return error as InvalidConfigurationException;
  }
  throw new Error('expected the constructor to throw');
}

describe('2.2.1 constructor validation', () => {
  it('rejects missing, empty and non-array routes naming `routes`', () => {
    for (const routes of [undefined, [], 'simple', {}]) {
      expect(configurationError({ routes }).message).toContain('routes');
    }
  });

  it('rejects missing options naming `routes`', () => {
    expect(() => new RoutingChatModel(undefined as unknown as RoutingChatModelOptions)).toThrow(
      InvalidConfigurationException,
    );
    expect(() => new RoutingChatModel(undefined as unknown as RoutingChatModelOptions)).toThrow(
      'routes',
    );
  });

  it('rejects a blank or missing route name naming `route name`', () => {
    for (const name of ['', '   ', undefined, 42]) {
      const error = configurationError({ routes: [simple(), { ...complex(), name }] });
      expect(error.message).toContain('route name');
      expect(error.message).toContain('routes[1]');
    }
  });

  it("rejects a duplicate name with `more than one route named 'simple'`", () => {
    const error = configurationError({ routes: [simple(), complex(), simple()] });
    expect(error.message).toContain("more than one route named 'simple'");
    expect(error.message).toMatch(/rename/);
  });

  it("rejects a missing model, or one without chat(), with `model of route 'simple'`", () => {
    for (const model of [undefined, null, {}, { chat: 'nope' }]) {
      const error = configurationError({
        routes: [{ ...simple(), model }],
        defaultRoute: 'simple',
      });
      expect(error.message).toContain("model of route 'simple'");
    }
  });

  it('rejects a blank description (string or array entry) with `description of route`', () => {
    for (const description of ['', '  ', ['fine', ' '], [42], 7]) {
      const error = configurationError({ routes: [simple(), { ...complex(), description }] });
      expect(error.message).toContain('description of route');
      expect(error.message).toContain("'complex'");
    }
  });

  it('accepts routes without description, with one, and with several', () => {
    const model = build({
      routes: [
        { name: 'a', model: fakeModel('a') },
        { name: 'b', description: 'one', model: fakeModel('b') },
        { name: 'c', description: ['x', 'y'], model: fakeModel('c') },
      ],
      defaultRoute: 'a',
      router: routeTo('a'),
    });
    expect(model.routes().map((route) => route.descriptions)).toEqual([[], ['one'], ['x', 'y']]);
  });

  it('rejects a missing or blank defaultRoute naming `defaultRoute`', () => {
    for (const defaultRoute of [undefined, '', '  ', 3]) {
      expect(configurationError({ defaultRoute }).message).toContain('defaultRoute');
    }
  });

  it("rejects a default that is not a route with `default route 'complex'`", () => {
    const error = configurationError({ routes: [simple()], defaultRoute: 'complex' });
    expect(error.message).toContain("default route 'complex'");
    expect(error.message).toContain("'simple'");
    expect(error.message).not.toContain('did you mean');
  });

  it('suggests the route a mistyped default meant', () => {
    const error = configurationError({ routes: [simple()], defaultRoute: 'simpel' });
    expect(error.message).toBe(
      "The default route 'simpel' is not one of the configured routes ('simple') (did you mean " +
        "'simple'?); set defaultRoute to one of them or add a route with that name.",
    );
  });

  it('rejects a missing or malformed router naming `router`', () => {
    for (const router of [undefined, null, {}, { route: 'x' }, 'simple']) {
      expect(configurationError({ router }).message).toContain('router');
    }
  });

  it('checks routes before defaultRoute and defaultRoute before router', () => {
    expect(
      configurationError({ routes: [], defaultRoute: undefined, router: undefined }).message,
    ).toContain('routes must be');
    expect(configurationError({ defaultRoute: undefined, router: undefined }).message).toContain(
      'defaultRoute',
    );
  });

  it('calls router.validate once with every route as routers see it', () => {
    const validate = jest.fn<(routes: readonly ChatModelRoute[]) => void>();
    const router: ChatModelRouter = {
      route: () => ChatModelRoutingResult.defaultRoute(),
      validate,
    };
    const routes: RouteDefinition[] = [
      { name: 'simple', description: 'Small talk', examples: ['hi'], model: fakeModel('simple') },
      { name: 'complex', description: ['Hard', 'Long'], examples: [], model: fakeModel('complex') },
    ];
    const model = new RoutingChatModel({ routes, router, defaultRoute: 'complex' });
    expect(model.defaultRoute()).toBe('complex');

    expect(validate).toHaveBeenCalledTimes(1);
    const seen = validate.mock.calls[0]![0];
    expect(seen).toEqual([
      { name: 'simple', descriptions: ['Small talk'], examples: ['hi'] },
      { name: 'complex', descriptions: ['Hard', 'Long'] },
    ]);
    expect('examples' in seen[1]!).toBe(false);
    expect('model' in seen[0]!).toBe(false);
  });

  it('calls validate with the router as `this`', () => {
    class Router implements ChatModelRouter {
      seen: readonly ChatModelRoute[] = [];
      route() {
        return ChatModelRoutingResult.defaultRoute();
      }
      validate(routes: readonly ChatModelRoute[]) {
        this.seen = routes;
      }
    }
    const router = new Router();
    build({ router });
    expect(router.seen.map((route) => route.name)).toEqual(['simple', 'complex']);
  });

  it('propagates what router.validate throws, unchanged', () => {
    const failure = new InvalidConfigurationException('option complex#1 occurs twice');
    const router: ChatModelRouter = {
      route: () => ChatModelRoutingResult.defaultRoute(),
      validate: () => {
        throw failure;
      },
    };
    expect(() => build({ router })).toThrow(failure);
  });

  it('accepts a bare function router', () => {
    const router = jest.fn<ChatModelRouterFunction>(() => ChatModelRoutingResult.defaultRoute());
    const model = build({ router });
    expect(model.defaultRoute()).toBe('simple');
    expect(router).not.toHaveBeenCalled();
  });

  it('exposes routes() in configuration order and defaultRoute()', () => {
    const model = build({ defaultRoute: 'complex' });
    expect(model.routes()).toEqual([
      { name: 'simple', descriptions: ['Small talk'] },
      { name: 'complex', descriptions: ['Hard work'] },
    ]);
    expect(model.defaultRoute()).toBe('complex');
  });

  it('keeps its configuration when the caller mutates the definitions afterwards', () => {
    const descriptions = ['Small talk'];
    const routes = [{ name: 'simple', description: descriptions, model: fakeModel('simple') }];
    const model = new RoutingChatModel({
      routes,
      router: routeTo('simple'),
      defaultRoute: 'simple',
    });
    descriptions.push('changed');
    routes[0]!.name = 'renamed';
    expect(model.routes()).toEqual([{ name: 'simple', descriptions: ['Small talk'] }]);
  });

  it('rejects examples that are not an array of non-blank strings', () => {
    const error = configurationError({ routes: [{ ...simple(), examples: ['ok', ''] }] });
    expect(error.message).toContain("examples of route 'simple'");
  });
});
