// Contract tests for DESIGN.md 2.2 (RoutingChatModel), black-box through src/index.ts only.
import { describe, expect, it, jest } from '@jest/globals';
import {
  Capability,
  ChatModelRoutingResult,
  InvalidConfigurationException,
  ROUTE_ATTRIBUTE,
  RoutingChatModel,
  RoutingException,
  aiMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
  type ChatMessage,
  type ChatModel,
  type ChatModelRouter,
  type ChatModelRouterFunction,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamEvent,
  type RouteDefinition,
} from '../../src/index.js';
import {
  collect,
  deferred,
  failingModel,
  fakeModel,
  flushMicrotasks,
  outcome,
  routerFn,
  routerObject,
  type ChatFn,
  type StreamFn,
  withCapabilities,
} from './fakes.js';

const JSON_SCHEMA = Capability.RESPONSE_FORMAT_JSON_SCHEMA;

const plainRequest = (): ChatRequest => ({ messages: [userMessage('hello')] });

const jsonSchemaRequest = (): ChatRequest => ({
  messages: [userMessage('give me json')],
  parameters: {
    responseFormat: {
      type: 'json',
      jsonSchema: { name: 'answer', schema: { type: 'object', properties: {} } },
    },
  },
});

const toRoute = (name: string) => () => ChatModelRoutingResult.route(name);

/** A RoutingChatModel of one route, which the router always picks. */
const oneRoute = (model: ChatModel, name: string) =>
  new RoutingChatModel({ routes: [{ name, model }], router: toRoute(name), defaultRoute: name });

// Builds a RoutingChatModel from loosely typed options, so invalid configurations can be passed.
function build(options: Record<string, unknown>): RoutingChatModel {
  return new RoutingChatModel(
    options as unknown as ConstructorParameters<typeof RoutingChatModel>[0],
  );
}

describe('2.2 ROUTE_ATTRIBUTE and ChatModelRoutingResult', () => {
  it('ROUTE_ATTRIBUTE is chat_model_route', () => {
    expect(ROUTE_ATTRIBUTE).toBe('chat_model_route');
  });

  it('route(name) carries the name and is not the default route', () => {
    const result = ChatModelRoutingResult.route('simple');
    expect(result).toBeInstanceOf(ChatModelRoutingResult);
    expect(result.routeName).toBe('simple');
    expect(result.isDefaultRoute).toBe(false);
  });

  it('defaultRoute() has no name and is the default route', () => {
    const result = ChatModelRoutingResult.defaultRoute();
    expect(result).toBeInstanceOf(ChatModelRoutingResult);
    expect(result.routeName).toBeUndefined();
    expect(result.isDefaultRoute).toBe(true);
  });

  it.each(['', '   ', '\t\n'])(
    'route(%j) throws InvalidConfigurationException naming routeName',
    (name) => {
      expect(() => ChatModelRoutingResult.route(name)).toThrow(InvalidConfigurationException);
      expect(() => ChatModelRoutingResult.route(name)).toThrow('routeName');
    },
  );
});

const simpleRoute = (): RouteDefinition => ({
  name: 'simple',
  description: 'easy',
  model: fakeModel(),
});

const complexRoute = (): RouteDefinition => ({
  name: 'complex',
  description: 'hard',
  model: fakeModel(),
});

describe('2.2.1 constructor validation', () => {
  const anyRouter = toRoute('simple');

  const invalid: [string, Record<string, unknown>, string][] = [
    [
      'no routes (empty array)',
      { routes: [], router: anyRouter, defaultRoute: 'simple' },
      'routes',
    ],
    ['no routes (missing)', { router: anyRouter, defaultRoute: 'simple' }, 'routes'],
    [
      'blank route name',
      {
        routes: [simpleRoute(), { name: '  ', model: fakeModel() }],
        router: anyRouter,
        defaultRoute: 'simple',
      },
      'route name',
    ],
    [
      'missing route name',
      {
        routes: [simpleRoute(), { model: fakeModel() }],
        router: anyRouter,
        defaultRoute: 'simple',
      },
      'route name',
    ],
    [
      'duplicate route name',
      {
        routes: [simpleRoute(), complexRoute(), simpleRoute()],
        router: anyRouter,
        defaultRoute: 'simple',
      },
      "more than one route named 'simple'",
    ],
    [
      'missing model',
      {
        routes: [{ name: 'simple', description: 'easy' }],
        router: anyRouter,
        defaultRoute: 'simple',
      },
      "model of route 'simple'",
    ],
    [
      'blank description',
      {
        routes: [{ ...simpleRoute(), description: '  ' }],
        router: anyRouter,
        defaultRoute: 'simple',
      },
      'description of route',
    ],
    [
      'blank description in a list',
      {
        routes: [{ ...simpleRoute(), description: ['fine', ' '] }],
        router: anyRouter,
        defaultRoute: 'simple',
      },
      'description of route',
    ],
    ['missing default route', { routes: [simpleRoute()], router: anyRouter }, 'defaultRoute'],
    [
      'blank default route',
      { routes: [simpleRoute()], router: anyRouter, defaultRoute: ' ' },
      'defaultRoute',
    ],
    [
      'default route not a route',
      { routes: [simpleRoute()], router: anyRouter, defaultRoute: 'complex' },
      "default route 'complex'",
    ],
    ['missing router', { routes: [simpleRoute()], defaultRoute: 'simple' }, 'router'],
  ];

  it.each(invalid)(
    '%s → InvalidConfigurationException containing the field',
    (_, options, fragment) => {
      expect(() => build(options)).toThrow(InvalidConfigurationException);
      expect(() => build(options)).toThrow(fragment);
    },
  );

  it('accepts a valid configuration with a bare-function router', () => {
    const model = new RoutingChatModel({
      routes: [simpleRoute(), complexRoute()],
      router: anyRouter,
      defaultRoute: 'complex',
    });
    expect(model.defaultRoute()).toBe('complex');
  });

  it('calls router.validate once with every route as a router sees it, at construction', async () => {
    const r = routerObject(toRoute('simple'));
    const routing = new RoutingChatModel({
      routes: [
        { name: 'simple', description: 'easy', model: fakeModel() },
        {
          name: 'complex',
          description: ['hard', 'long'],
          examples: ['prove it'],
          model: fakeModel(),
        },
        { name: 'bare', model: fakeModel() },
      ],
      router: r,
      defaultRoute: 'simple',
    });
    expect(r.validate).toHaveBeenCalledTimes(1);
    const seen = r.validate.mock.calls[0]![0];
    expect(seen).toEqual([
      { name: 'simple', descriptions: ['easy'] },
      { name: 'complex', descriptions: ['hard', 'long'], examples: ['prove it'] },
      { name: 'bare', descriptions: [] },
    ]);
    // examples are present only when the route has some; no model is exposed
    expect(seen[0]).not.toHaveProperty('examples');
    expect(seen[2]).not.toHaveProperty('examples');
    for (const route of seen) expect(route).not.toHaveProperty('model');

    await routing.chat(plainRequest());
    expect(r.validate).toHaveBeenCalledTimes(1);
  });

  it('propagates what router.validate throws, unchanged', () => {
    const failure = new Error('validate says no');
    const router: ChatModelRouter = {
      route: () => ChatModelRoutingResult.defaultRoute(),
      validate: () => {
        throw failure;
      },
    };
    const construct = () =>
      new RoutingChatModel({ routes: [simpleRoute()], router, defaultRoute: 'simple' });
    expect(construct).toThrow(failure);
    let thrown: unknown;
    try {
      construct();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe(failure);
  });

  it('routes() lists every configured route without models; defaultRoute() is the configured default', () => {
    const routing = new RoutingChatModel({
      routes: [
        simpleRoute(),
        { name: 'complex', description: ['hard', 'long'], model: fakeModel() },
      ],
      router: anyRouter,
      defaultRoute: 'complex',
    });
    expect(routing.routes()).toEqual([
      { name: 'simple', descriptions: ['easy'] },
      { name: 'complex', descriptions: ['hard', 'long'] },
    ]);
    expect(routing.defaultRoute()).toBe('complex');
  });
});

describe('2.2.2 capabilities and default parameters', () => {
  it('supportedCapabilities() is the union of the routes capabilities', () => {
    const routing = new RoutingChatModel({
      routes: [
        { name: 'plain', model: fakeModel() },
        { name: 'json', model: withCapabilities(fakeModel('x'), [JSON_SCHEMA]) },
        { name: 'json2', model: withCapabilities(fakeModel('x'), [JSON_SCHEMA]) },
      ],
      router: toRoute('plain'),
      defaultRoute: 'plain',
    });
    expect([...routing.supportedCapabilities()]).toEqual([JSON_SCHEMA]);
  });

  it('supportedCapabilities() is empty when no route declares any', () => {
    const routing = new RoutingChatModel({
      routes: [
        { name: 'a', model: fakeModel() },
        { name: 'b', model: withCapabilities(fakeModel('x'), []) },
      ],
      router: toRoute('a'),
      defaultRoute: 'a',
    });
    expect(routing.supportedCapabilities().size).toBe(0);
  });

  it('defaultRequestParameters() is {} even when route models have defaults', () => {
    const withDefaults = { ...fakeModel(), defaultRequestParameters: () => ({ temperature: 0.1 }) };
    const routing = oneRoute(withDefaults, 'a');
    expect(routing.defaultRequestParameters()).toEqual({});
  });
});

function capabilitySetup(router = routerFn(() => ChatModelRoutingResult.defaultRoute())) {
  const models = {
    simple: fakeModel('simple'),
    jsonA: withCapabilities(fakeModel('jsonA'), [JSON_SCHEMA]),
    medium: fakeModel('medium'),
    jsonB: withCapabilities(fakeModel('jsonB'), [JSON_SCHEMA]),
  };
  const routing = new RoutingChatModel({
    routes: [
      { name: 'simple', description: 'easy', model: models.simple },
      { name: 'jsonA', description: 'json a', model: models.jsonA },
      { name: 'medium', description: 'medium', model: models.medium },
      { name: 'jsonB', description: 'json b', model: models.jsonB },
    ],
    router,
    defaultRoute: 'simple',
  });
  return { routing, router, models };
}

describe('2.2.3 required capabilities and candidates', () => {
  it('a json response format with a jsonSchema makes only capable routes candidates, in order', async () => {
    const { routing, router } = capabilitySetup();
    await routing.chat(jsonSchemaRequest());
    expect(router).toHaveBeenCalledTimes(1);
    expect(router.mock.calls[0]![0].routes).toEqual([
      { name: 'jsonA', descriptions: ['json a'] },
      { name: 'jsonB', descriptions: ['json b'] },
    ]);
  });

  it('defaultRoute() falls back to the first candidate when the configured default is not one', async () => {
    const { routing, models } = capabilitySetup();
    const response = await routing.chat(jsonSchemaRequest());
    expect(models.jsonA.chat).toHaveBeenCalledTimes(1);
    expect(models.simple.chat).not.toHaveBeenCalled();
    expect(models.jsonB.chat).not.toHaveBeenCalled();
    expect(response.aiMessage.attributes?.[ROUTE_ATTRIBUTE]).toBe('jsonA');
  });

  it('defaultRoute() uses the configured default when it is a candidate', async () => {
    const { routing, models } = capabilitySetup();
    await routing.chat(plainRequest());
    expect(models.simple.chat).toHaveBeenCalledTimes(1);
    expect(models.jsonA.chat).not.toHaveBeenCalled();
  });

  it.each<[string, ChatRequest['parameters']]>([
    ['no parameters', undefined],
    ['text response format', { responseFormat: { type: 'text' } }],
    ['json response format without jsonSchema', { responseFormat: { type: 'json' } }],
    [
      'tools and other parameters',
      { temperature: 0, tools: [{ name: 't' }], toolChoice: 'required' },
    ],
  ])('%s → no required capability, every route is a candidate', async (_, parameters) => {
    const { routing, router } = capabilitySetup();
    const request: ChatRequest = { messages: [userMessage('hi')] };
    if (parameters) request.parameters = parameters;
    await routing.chat(request);
    expect(router.mock.calls[0]![0].routes.map((r) => r.name)).toEqual([
      'simple',
      'jsonA',
      'medium',
      'jsonB',
    ]);
  });

  it('when no route declares the required capability, every route is a candidate', async () => {
    const router = routerFn(() => ChatModelRoutingResult.defaultRoute());
    const a = fakeModel('a');
    const b = fakeModel('b');
    const routing = new RoutingChatModel({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: b },
      ],
      router,
      defaultRoute: 'b',
    });
    await routing.chat(jsonSchemaRequest());
    expect(router.mock.calls[0]![0].routes.map((r) => r.name)).toEqual(['a', 'b']);
    expect(b.chat).toHaveBeenCalledTimes(1);
    expect(a.chat).not.toHaveBeenCalled();
  });

  it('the router gets the caller request, the candidates, the caller attributes and signal', async () => {
    const { routing, router } = capabilitySetup();
    const request = jsonSchemaRequest();
    const signal = new AbortController().signal;
    await routing.chat(request, { attributes: { tenant: 't1' }, signal });
    const seen = router.mock.calls[0]![0];
    expect(seen.chatRequest).toEqual(request);
    expect(seen.routes.map((r) => r.name)).toEqual(['jsonA', 'jsonB']);
    expect(seen.attributes).toEqual({ tenant: 't1' });
    expect(seen.signal).toBe(signal);
  });

  it('the router gets empty attributes when the caller passes none', async () => {
    const { routing, router } = capabilitySetup();
    await routing.chat(plainRequest());
    expect(router.mock.calls[0]![0].attributes).toEqual({});
  });

  it('an async router is awaited', async () => {
    const { routing, models } = capabilitySetup(
      routerFn(async () => ChatModelRoutingResult.route('medium')),
    );
    const response = await routing.chat(plainRequest());
    expect(models.medium.chat).toHaveBeenCalledTimes(1);
    expect(response.aiMessage.text).toBe('medium');
  });

  it('a router object (route method) is accepted as well as a bare function', async () => {
    const r = routerObject(toRoute('medium'));
    const medium = fakeModel('medium');
    const routing = new RoutingChatModel({
      routes: [
        { name: 'simple', model: fakeModel() },
        { name: 'medium', model: medium },
      ],
      router: r,
      defaultRoute: 'simple',
    });
    await routing.chat(plainRequest());
    expect(r.route).toHaveBeenCalledTimes(1);
    expect(medium.chat).toHaveBeenCalledTimes(1);
  });
});

/** Routes `simple` (the default) and `complex`, each over a fake model answering its name. */
function simpleAndComplex(router: ChatModelRouterFunction, simple = fakeModel('simple')) {
  const complex = fakeModel('complex');
  const routing = new RoutingChatModel({
    routes: [
      { name: 'simple', model: simple },
      { name: 'complex', model: complex },
    ],
    router,
    defaultRoute: 'simple',
  });
  return { routing, simple, complex };
}

// `simple` alone supports a JSON schema, so `complex` is no candidate for a JSON-schema request
const resultSetup = (answer: () => unknown) =>
  simpleAndComplex(
    answer as ChatModelRouterFunction,
    withCapabilities(fakeModel('simple'), [JSON_SCHEMA]),
  );

describe('2.2.4 router results', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['a route name string', 'simple'],
    ['a number', 42],
  ])('%s → RoutingException naming ChatModelRoutingResult.defaultRoute()', async (_, result) => {
    const { routing, simple, complex } = resultSetup(() => result);
    const call = routing.chat(plainRequest());
    await expect(call).rejects.toBeInstanceOf(RoutingException);
    await expect(routing.chat(plainRequest())).rejects.toThrow(
      'ChatModelRoutingResult.defaultRoute()',
    );
    expect(simple.chat).not.toHaveBeenCalled();
    expect(complex.chat).not.toHaveBeenCalled();
  });

  it('a promise of null → RoutingException naming ChatModelRoutingResult.defaultRoute()', async () => {
    const { routing } = resultSetup(async () => null);
    await expect(routing.chat(plainRequest())).rejects.toBeInstanceOf(RoutingException);
    await expect(routing.chat(plainRequest())).rejects.toThrow(
      'ChatModelRoutingResult.defaultRoute()',
    );
  });

  it("unknown route name → RoutingException containing unknown route 'medium'", async () => {
    const { routing, simple, complex } = resultSetup(toRoute('medium'));
    await expect(routing.chat(plainRequest())).rejects.toBeInstanceOf(RoutingException);
    await expect(routing.chat(plainRequest())).rejects.toThrow("unknown route 'medium'");
    expect(simple.chat).not.toHaveBeenCalled();
    expect(complex.chat).not.toHaveBeenCalled();
  });

  it("known route that is not a candidate → RoutingException containing Route 'complex' does not support", async () => {
    const { routing, simple, complex } = resultSetup(toRoute('complex'));
    await expect(routing.chat(jsonSchemaRequest())).rejects.toBeInstanceOf(RoutingException);
    await expect(routing.chat(jsonSchemaRequest())).rejects.toThrow(
      "Route 'complex' does not support",
    );
    expect(simple.chat).not.toHaveBeenCalled();
    expect(complex.chat).not.toHaveBeenCalled();
  });

  it('a router error thrown synchronously propagates unchanged', async () => {
    const failure = new Error('router broke');
    const { routing, simple, complex } = resultSetup(() => {
      throw failure;
    });
    await expect(routing.chat(plainRequest())).rejects.toBe(failure);
    expect(simple.chat).not.toHaveBeenCalled();
    expect(complex.chat).not.toHaveBeenCalled();
  });

  it('a router rejection (even a non-Error value) propagates unchanged', async () => {
    const failure = { code: 'ROUTER_DOWN' };
    const { routing } = resultSetup(async () => {
      throw failure;
    });
    await expect(routing.chat(plainRequest())).rejects.toBe(failure);
  });

  it('a RoutingException thrown by the router is the same object', async () => {
    const failure = new RoutingException('router-specific');
    const { routing } = resultSetup(() => {
      throw failure;
    });
    await expect(routing.chat(plainRequest())).rejects.toBe(failure);
  });
});

const callSetup = (router: ChatModelRouterFunction = toRoute('complex')) =>
  simpleAndComplex(router);

describe('2.2.5 the chosen model call', () => {
  it('gets the caller request unchanged, attributes + chat_model_route, and the signal', async () => {
    const { routing, complex } = callSetup();
    const request: ChatRequest = {
      messages: [systemMessage('be brief'), userMessage('hello')],
      parameters: { temperature: 0.2, maxOutputTokens: 50 },
    };
    const snapshot = structuredClone(request);
    const attributes = { tenant: 't1', nested: { a: 1 } };
    const signal = new AbortController().signal;

    await routing.chat(request, { attributes, signal });

    expect(complex.chat).toHaveBeenCalledTimes(1);
    expect(complex.chat).toHaveBeenCalledWith(request, {
      attributes: { tenant: 't1', nested: { a: 1 }, chat_model_route: 'complex' },
      signal,
    });
    expect(complex.chat.mock.calls[0]![1]?.signal).toBe(signal);
    expect(request).toEqual(snapshot);
    expect(attributes).toEqual({ tenant: 't1', nested: { a: 1 } });
  });

  it('without caller options the attributes are just { chat_model_route }', async () => {
    const { routing, complex } = callSetup();
    const request = plainRequest();
    await routing.chat(request);
    expect(complex.chat).toHaveBeenCalledWith(request, {
      attributes: { chat_model_route: 'complex' },
    });
  });

  it('the route name wins over a caller attribute of the same key', async () => {
    const { routing, complex } = callSetup();
    const request = plainRequest();
    await routing.chat(request, { attributes: { chat_model_route: 'spoofed', user: 'u' } });
    expect(complex.chat).toHaveBeenCalledWith(request, {
      attributes: { chat_model_route: 'complex', user: 'u' },
    });
  });

  it('the default route is named in the attributes', async () => {
    const { routing, simple } = callSetup(() => ChatModelRoutingResult.defaultRoute());
    const request = plainRequest();
    await routing.chat(request);
    expect(simple.chat).toHaveBeenCalledWith(request, {
      attributes: { chat_model_route: 'simple' },
    });
  });

  it('a model error propagates unchanged and no other route is tried', async () => {
    const failure = new Error('model down');
    const failing = failingModel(failure);
    const other = fakeModel('other');
    const router = routerFn(toRoute('failing'));
    const routing = new RoutingChatModel({
      routes: [
        { name: 'other', model: other },
        { name: 'failing', model: failing },
      ],
      router,
      defaultRoute: 'other',
    });
    await expect(routing.chat(plainRequest())).rejects.toBe(failure);
    expect(failing.chat).toHaveBeenCalledTimes(1);
    expect(other.chat).not.toHaveBeenCalled();
    expect(router).toHaveBeenCalledTimes(1);
  });
});

describe('2.2.6 the response', () => {
  it('is a copy whose aiMessage carries chat_model_route, other fields kept', async () => {
    const original: ChatResponse = {
      aiMessage: { role: 'assistant', text: 'hi', attributes: { mine: 1 } },
      modelName: 'm-1',
      tokenUsage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
      finishReason: 'stop',
      id: 'r-1',
    };
    const snapshot = structuredClone(original);
    const model = { chat: jest.fn<ChatFn>(async () => original) };
    const routing = oneRoute(model, 'only');
    const response = await routing.chat(plainRequest());
    expect(response).toEqual({
      ...snapshot,
      aiMessage: { ...snapshot.aiMessage, attributes: { mine: 1, chat_model_route: 'only' } },
    });
    expect(response).not.toBe(original);
    expect(original).toEqual(snapshot);
  });

  it('adds attributes when the model response has none', async () => {
    const routing = oneRoute(fakeModel('x'), 'only');
    const response = await routing.chat(plainRequest());
    expect(response.aiMessage).toEqual({
      role: 'assistant',
      text: 'x',
      attributes: { chat_model_route: 'only' },
    });
  });

  it('the outer router wins when routers are nested; the inner model sees the inner route', async () => {
    const leaf = fakeModel('leaf');
    const inner = oneRoute(leaf, 'inner-route');
    const outer = new RoutingChatModel({
      routes: [
        { name: 'other', model: fakeModel() },
        { name: 'outer-route', model: inner },
      ],
      router: toRoute('outer-route'),
      defaultRoute: 'other',
    });
    const request = plainRequest();
    const response = await outer.chat(request, { attributes: { tenant: 't' } });
    expect(response.aiMessage.attributes?.[ROUTE_ATTRIBUTE]).toBe('outer-route');
    expect(leaf.chat).toHaveBeenCalledWith(request, {
      attributes: { tenant: 't', chat_model_route: 'inner-route' },
    });
  });
});

function toolLoopSetup() {
  const router = routerFn(toRoute('simple'));
  const simple = withCapabilities(fakeModel('simple'), [JSON_SCHEMA]);
  const complex = {
    chat: jest.fn<ChatFn>(async () => ({
      aiMessage: {
        role: 'assistant',
        toolCalls: [{ id: 'call-1', name: 'lookup', arguments: '{"q":"x"}' }],
      },
      finishReason: 'tool_calls',
    })),
  };
  const routing = new RoutingChatModel({
    routes: [
      { name: 'simple', model: simple },
      { name: 'complex', model: complex },
    ],
    router,
    defaultRoute: 'simple',
  });
  return { routing, router, simple, complex };
}

/** A tool-loop turn: the AI message of `route` that called a tool, then the tool's result. */
const toolTurn = (route: string): ChatMessage[] => [
  userMessage('x'),
  aiMessage({
    toolCalls: [{ id: 'c', name: 't', arguments: '{}' }],
    attributes: { chat_model_route: route },
  }),
  toolResultMessage('c', 'r'),
];

const withRoute = (route: unknown): ChatMessage =>
  aiMessage({
    toolCalls: [{ id: 'call-1', name: 'lookup', arguments: '{}' }],
    attributes: { chat_model_route: route },
  });

/** `ai` before a trailing tool result, where the sticky route does not apply. */
const asksTheRouter = (ai: ChatMessage) => [
  userMessage('x'),
  ai,
  toolResultMessage('call-1', '42'),
];

it('the route named by the AI message before a trailing tool result serves it; router not called', async () => {
  const { routing, router, simple, complex } = toolLoopSetup();
  const request: ChatRequest = {
    messages: [
      userMessage('look it up'),
      withRoute('complex'),
      toolResultMessage('call-1', '42', 'lookup'),
    ],
  };
  await routing.chat(request, { attributes: { tenant: 't' } });
  expect(router).not.toHaveBeenCalled();
  expect(simple.chat).not.toHaveBeenCalled();
  expect(complex.chat).toHaveBeenCalledWith(request, {
    attributes: { tenant: 't', chat_model_route: 'complex' },
  });
});

describe('2.2.7 tool loop', () => {
  it('survives JSON.parse(JSON.stringify(messages)) of a real first turn', async () => {
    const { routing, router, complex } = toolLoopSetup();
    router.mockImplementationOnce(toRoute('complex'));
    const first = await routing.chat({ messages: [userMessage('look it up')] });
    expect(complex.chat).toHaveBeenCalledTimes(1);

    const history: ChatMessage[] = [
      userMessage('look it up'),
      first.aiMessage,
      toolResultMessage('call-1', '42', 'lookup'),
    ];
    const roundTripped = JSON.parse(JSON.stringify(history)) as ChatMessage[];
    const second = await routing.chat({ messages: roundTripped });

    expect(router).toHaveBeenCalledTimes(1);
    expect(complex.chat).toHaveBeenCalledTimes(2);
    expect(second.aiMessage.attributes?.[ROUTE_ATTRIBUTE]).toBe('complex');
  });

  it('several trailing tool results still use the nearest AI message', async () => {
    const { routing, router, complex } = toolLoopSetup();
    await routing.chat({
      messages: [
        userMessage('two tools'),
        withRoute('complex'),
        toolResultMessage('call-1', 'a'),
        toolResultMessage('call-2', 'b'),
      ],
    });
    expect(router).not.toHaveBeenCalled();
    expect(complex.chat).toHaveBeenCalledTimes(1);
  });

  it('skips capability filtering: the sticky route serves even if it lacks a required capability', async () => {
    const { routing, router, simple, complex } = toolLoopSetup();
    await routing.chat({
      messages: [userMessage('x'), withRoute('complex'), toolResultMessage('call-1', '42')],
      parameters: jsonSchemaRequest().parameters!,
    });
    expect(router).not.toHaveBeenCalled();
    expect(simple.chat).not.toHaveBeenCalled();
    expect(complex.chat).toHaveBeenCalledTimes(1);
  });

  it.each<[string, ChatMessage[]]>([
    [
      'missing attributes → the router is asked',
      asksTheRouter(aiMessage({ toolCalls: [{ id: 'call-1', name: 'lookup', arguments: '{}' }] })),
    ],
    [
      'missing route attribute → the router is asked',
      asksTheRouter(aiMessage({ text: 't', attributes: { other: 'complex' } })),
    ],
    ['non-string route → the router is asked', asksTheRouter(withRoute(42))],
    ['route object → the router is asked', asksTheRouter(withRoute({ name: 'complex' }))],
    ['unknown route → the router is asked', asksTheRouter(withRoute('gone'))],
    [
      'earlier AI messages are not consulted',
      [
        userMessage('x'),
        withRoute('complex'),
        toolResultMessage('call-1', '42'),
        aiMessage({ toolCalls: [{ id: 'call-2', name: 'lookup', arguments: '{}' }] }),
        toolResultMessage('call-2', '43'),
      ],
    ],
    [
      'when the last message is not a tool result, the router is asked',
      [
        userMessage('x'),
        withRoute('complex'),
        toolResultMessage('call-1', '42'),
        userMessage('and now?'),
      ],
    ],
    [
      'a tool result with no earlier AI message → the router is asked',
      [userMessage('x'), toolResultMessage('call-1', '42')],
    ],
  ])('%s', async (_, messages) => {
    const { routing, router, simple, complex } = toolLoopSetup();
    await routing.chat({ messages });
    expect(router).toHaveBeenCalledTimes(1);
    expect(simple.chat).toHaveBeenCalledTimes(1);
    expect(complex.chat).not.toHaveBeenCalled();
  });
});

function abortSetup(router: Parameters<typeof routerFn>[0] = toRoute('simple')) {
  const simple = fakeModel('simple');
  const mock = routerFn(router);
  const routing = new RoutingChatModel({
    routes: [{ name: 'simple', model: simple }],
    router: mock,
    defaultRoute: 'simple',
  });
  return { routing, router: mock, simple };
}

describe('2.2.8 abort', () => {
  it('aborted before the call → rejects with the exact abort reason; no model called', async () => {
    const { routing, simple } = abortSetup();
    const controller = new AbortController();
    const reason = { why: 'user left' };
    controller.abort(reason);
    await expect(routing.chat(plainRequest(), { signal: controller.signal })).rejects.toBe(reason);
    expect(simple.chat).not.toHaveBeenCalled();
  });

  it('aborted before a tool-loop call → rejects with the reason; no model called', async () => {
    const { routing, simple } = abortSetup();
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const call = routing.chat({ messages: toolTurn('simple') }, { signal: controller.signal });
    await expect(call).rejects.toBe(reason);
    expect(simple.chat).not.toHaveBeenCalled();
  });

  it('aborted while the router decides → rejects with the reason; no model called even if the router answers', async () => {
    const decision = deferred<ChatModelRoutingResult>();
    const { routing, router, simple } = abortSetup(() => decision.promise);
    const controller = new AbortController();
    const reason = { why: 'timeout' };
    const call = routing.chat(plainRequest(), { signal: controller.signal });
    const settled = outcome(call);
    await flushMicrotasks();
    expect(router).toHaveBeenCalledTimes(1);
    controller.abort(reason);
    decision.resolve(ChatModelRoutingResult.route('simple'));
    await expect(settled).resolves.toEqual({ ok: false, error: reason });
    expect(((await settled) as { error?: unknown }).error).toBe(reason);
    expect(simple.chat).not.toHaveBeenCalled();
  });

  it('aborted while a router that ignores the signal never answers → still rejects with the reason', async () => {
    const { routing, simple } = abortSetup(() => new Promise<ChatModelRoutingResult>(() => {}));
    const controller = new AbortController();
    const reason = { why: 'gone' };
    const call = routing.chat(plainRequest(), { signal: controller.signal });
    await flushMicrotasks();
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(simple.chat).not.toHaveBeenCalled();
  });

  it('a signal that never aborts changes nothing', async () => {
    const { routing, simple } = abortSetup();
    const response = await routing.chat(plainRequest(), { signal: new AbortController().signal });
    expect(response.aiMessage.text).toBe('simple');
    expect(simple.chat).toHaveBeenCalledTimes(1);
  });
});

function streamingModel(events: ChatStreamEvent[]) {
  return {
    chat: jest.fn<ChatFn>(async () => ({ aiMessage: { role: 'assistant', text: 'from chat' } })),
    stream: jest.fn<StreamFn>(async function* () {
      for (const event of events) yield event;
    }),
  };
}

describe('2.2.9 stream()', () => {
  const finalResponse: ChatResponse = {
    aiMessage: { role: 'assistant', text: 'ab' },
    finishReason: 'stop',
    tokenUsage: { totalTokens: 5 },
  };

  it('routing happens lazily when iteration starts', async () => {
    const router = routerFn(toRoute('s'));
    const model = streamingModel([{ type: 'complete', response: finalResponse }]);
    const routing = new RoutingChatModel({
      routes: [{ name: 's', model }],
      router,
      defaultRoute: 's',
    });
    const iterable = routing.stream(plainRequest());
    await flushMicrotasks();
    expect(router).not.toHaveBeenCalled();
    expect(model.stream).not.toHaveBeenCalled();
    expect(model.chat).not.toHaveBeenCalled();

    await collect(iterable);
    expect(router).toHaveBeenCalledTimes(1);
  });

  it('forwards the model events; the complete response carries the route attribute', async () => {
    const model = streamingModel([
      { type: 'text-delta', text: 'a' },
      { type: 'tool-call', toolCall: { id: 'c1', name: 't', arguments: '{}' } },
      { type: 'text-delta', text: 'b' },
      { type: 'complete', response: finalResponse },
    ]);
    const routing = new RoutingChatModel({
      routes: [
        { name: 'other', model: fakeModel() },
        { name: 's', model },
      ],
      router: toRoute('s'),
      defaultRoute: 'other',
    });
    const request = plainRequest();
    const signal = new AbortController().signal;
    const events = await collect(routing.stream(request, { attributes: { tenant: 't' }, signal }));

    expect(events).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'tool-call', toolCall: { id: 'c1', name: 't', arguments: '{}' } },
      { type: 'text-delta', text: 'b' },
      {
        type: 'complete',
        response: {
          ...finalResponse,
          aiMessage: { role: 'assistant', text: 'ab', attributes: { chat_model_route: 's' } },
        },
      },
    ]);
    expect(events.filter((e) => e.type === 'complete')).toHaveLength(1);
    expect(model.chat).not.toHaveBeenCalled();
    expect(model.stream).toHaveBeenCalledWith(request, {
      attributes: { tenant: 't', chat_model_route: 's' },
      signal,
    });
    expect(finalResponse.aiMessage.attributes).toBeUndefined();
  });

  it('a route model without stream is served by chat: one text delta plus complete', async () => {
    const model = fakeModel('whole answer');
    const routing = oneRoute(model, 'c');
    const request = plainRequest();
    const events = await collect(routing.stream(request, { attributes: { k: 'v' } }));
    expect(events).toEqual([
      { type: 'text-delta', text: 'whole answer' },
      {
        type: 'complete',
        response: {
          aiMessage: {
            role: 'assistant',
            text: 'whole answer',
            attributes: { chat_model_route: 'c' },
          },
        },
      },
    ]);
    expect(model.chat).toHaveBeenCalledTimes(1);
    expect(model.chat).toHaveBeenCalledWith(request, {
      attributes: { k: 'v', chat_model_route: 'c' },
    });
  });

  it('a router error surfaces as the iteration rejection, not from stream() itself', async () => {
    const failure = new Error('router broke');
    const routing = new RoutingChatModel({
      routes: [{ name: 'c', model: fakeModel() }],
      router: () => {
        throw failure;
      },
      defaultRoute: 'c',
    });
    let iterable: AsyncIterable<ChatStreamEvent> | undefined;
    expect(() => {
      iterable = routing.stream(plainRequest());
    }).not.toThrow();
    await expect(collect(iterable!)).rejects.toBe(failure);
  });

  it('an unknown route surfaces as a RoutingException from the iteration', async () => {
    const model = fakeModel();
    const routing = new RoutingChatModel({
      routes: [{ name: 'c', model }],
      router: toRoute('medium'),
      defaultRoute: 'c',
    });
    const iteration = collect(routing.stream(plainRequest()));
    await expect(iteration).rejects.toBeInstanceOf(RoutingException);
    await expect(collect(routing.stream(plainRequest()))).rejects.toThrow("unknown route 'medium'");
    expect(model.chat).not.toHaveBeenCalled();
  });

  it('stream uses the tool-loop route without calling the router', async () => {
    const router = routerFn(toRoute('a'));
    const a = streamingModel([{ type: 'complete', response: finalResponse }]);
    const b = streamingModel([{ type: 'complete', response: finalResponse }]);
    const routing = new RoutingChatModel({
      routes: [
        { name: 'a', model: a },
        { name: 'b', model: b },
      ],
      router,
      defaultRoute: 'a',
    });
    const events = await collect(routing.stream({ messages: toolTurn('b') }));
    expect(router).not.toHaveBeenCalled();
    expect(b.stream).toHaveBeenCalledTimes(1);
    expect(a.stream).not.toHaveBeenCalled();
    const complete = events.at(-1) as Extract<ChatStreamEvent, { type: 'complete' }>;
    expect(complete.response.aiMessage.attributes?.[ROUTE_ATTRIBUTE]).toBe('b');
  });

  it('a stream aborted before iteration rejects with the reason and calls no model', async () => {
    const model = fakeModel();
    const routing = oneRoute(model, 'c');
    const controller = new AbortController();
    const reason = { why: 'gone' };
    controller.abort(reason);
    await expect(
      collect(routing.stream(plainRequest(), { signal: controller.signal })),
    ).rejects.toBe(reason);
    expect(model.chat).not.toHaveBeenCalled();
  });

  it('a model stream error propagates unchanged through the iteration', async () => {
    const failure = new Error('stream broke');
    const model = {
      chat: jest.fn<ChatFn>(async () => ({ aiMessage: { role: 'assistant', text: '' } })),
      stream: jest.fn<StreamFn>(async function* () {
        yield { type: 'text-delta', text: 'a' } as ChatStreamEvent;
        throw failure;
      }),
    };
    const routing = oneRoute(model, 'c');
    const seen: ChatStreamEvent[] = [];
    const iterate = async () => {
      for await (const event of routing.stream(plainRequest())) seen.push(event);
    };
    await expect(iterate()).rejects.toBe(failure);
    expect(seen).toEqual([{ type: 'text-delta', text: 'a' }]);
  });
});
