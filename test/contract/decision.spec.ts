// Contract tests for DESIGN.md 2.3 (DecisionModelChatModelRouter), black-box through src/index.ts only.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  ChatModelRoutingResult,
  DEFAULT_QUESTION,
  DecisionModelChatModelRouter,
  FallbackStrategy,
  InvalidConfigurationException,
  InvalidDecisionResponseException,
  RoutingChatModel,
  RoutingException,
  aiMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
  type ChatMessage,
  type ChatModelRoute,
  type ChatModelRoutingRequest,
  type ChoiceAnswer,
  type DecisionModel,
  type DecisionRequest,
  type RouteDefinition,
} from '../../src/index.js';
import { fakeModel, flushMicrotasks, withCapabilities } from './fakes.js';

type DecideFn = (request: DecisionRequest) => Promise<ChoiceAnswer>;

function decisionModel(answer: ChoiceAnswer | DecideFn) {
  const decide = jest.fn<DecideFn>(
    typeof answer === 'function' ? answer : async () => structuredClone(answer),
  );
  return { decide } satisfies DecisionModel;
}

const silentLogger = () => ({ warn: jest.fn<(message: string, ...context: unknown[]) => void>() });

type Options = NonNullable<ConstructorParameters<typeof DecisionModelChatModelRouter>[1]>;

function makeRouter(model: DecisionModel, options: Options = {}) {
  const logger = silentLogger();
  const router = new DecisionModelChatModelRouter(model, { logger, ...options });
  return { router, logger };
}

// a: no description; b: one description; c: two descriptions, with examples
const ROUTES: ChatModelRoute[] = [
  { name: 'a', descriptions: [] },
  { name: 'b', descriptions: ['desc b'] },
  { name: 'c', descriptions: ['c one', 'c two'], examples: ['c example'] },
];

function routingRequest(
  messages: ChatMessage[],
  routes: readonly ChatModelRoute[] = ROUTES,
  signal?: AbortSignal,
): ChatModelRoutingRequest {
  const request: ChatModelRoutingRequest = { chatRequest: { messages }, routes, attributes: {} };
  return signal ? { ...request, signal } : request;
}

const ask = (text = 'question') => [userMessage(text)];

async function routeOf(router: DecisionModelChatModelRouter, request: ChatModelRoutingRequest) {
  const result = await router.route(request);
  expect(result).toBeInstanceOf(ChatModelRoutingResult);
  return result;
}

// RoutingChatModel over routes a, b, c (c declared as in ROUTES), default `defaultRoute`.
function routingModel(router: DecisionModelChatModelRouter, defaultRoute = 'b') {
  const models = { a: fakeModel('a'), b: fakeModel('b'), c: fakeModel('c') };
  const routes: RouteDefinition[] = [
    { name: 'a', model: models.a },
    { name: 'b', description: 'desc b', model: models.b },
    { name: 'c', description: ['c one', 'c two'], examples: ['c example'], model: models.c },
  ];
  return { routing: new RoutingChatModel({ routes, router, defaultRoute }), models };
}

function served(models: Record<string, ReturnType<typeof fakeModel>>): string[] {
  return Object.entries(models)
    .filter(([, model]) => model.chat.mock.calls.length > 0)
    .map(([name]) => name);
}

describe('2.3 exported constants', () => {
  it('DEFAULT_QUESTION and FallbackStrategy values', () => {
    expect(DEFAULT_QUESTION).toBe('Which model should handle this request?');
    expect(FallbackStrategy.DEFAULT_ROUTE).toBe('DEFAULT_ROUTE');
    expect(FallbackStrategy.FAIL).toBe('FAIL');
  });
});

const create =
  (m: unknown, options: Record<string, unknown> = {}) =>
  () =>
    new DecisionModelChatModelRouter(m as DecisionModel, options as Options);

describe('2.3.1 validation', () => {
  const model = decisionModel({ value: 'a' });
  it.each<[string, unknown, Record<string, unknown>, string]>([
    ['missing decision model', undefined, {}, 'decisionModel'],
    ['null decision model', null, {}, 'decisionModel'],
    ['minProbability below 0', model, { minProbability: -0.01 }, 'minProbability'],
    ['minProbability above 1', model, { minProbability: 1.01 }, 'minProbability'],
    ['maxMessages 0', model, { maxMessages: 0 }, 'maxMessages'],
    ['maxMessages negative', model, { maxMessages: -3 }, 'maxMessages'],
    ['blank question', model, { question: '   ' }, 'question'],
    ['empty question', model, { question: '' }, 'question'],
  ])('%s → InvalidConfigurationException containing the field', (_, m, options, fragment) => {
    expect(create(m, options)).toThrow(InvalidConfigurationException);
    expect(create(m, options)).toThrow(fragment);
  });

  it.each<[string, Record<string, unknown>]>([
    ['no options', {}],
    ['minProbability 0', { minProbability: 0 }],
    ['minProbability 1', { minProbability: 1 }],
    ['maxMessages 1', { maxMessages: 1 }],
    ['fallback FAIL', { fallbackStrategy: FallbackStrategy.FAIL }],
    ['custom question', { question: 'Who?' }],
  ])('accepts %s', (_, options) => {
    expect(create(model, options)).not.toThrow();
  });

  it('accepts being constructed with only a decision model', () => {
    expect(() => new DecisionModelChatModelRouter(model)).not.toThrow();
  });
});

describe('2.3.2 options', () => {
  it('one option per description, in candidate order, named as the design states', async () => {
    const model = decisionModel({ value: 'b' });
    const { router } = makeRouter(model);
    await routeOf(router, routingRequest(ask()));
    expect(model.decide).toHaveBeenCalledTimes(1);
    const question = model.decide.mock.calls[0]![0].question;
    expect(question.text).toBe(DEFAULT_QUESTION);
    expect(question.options).toEqual([
      { name: 'a', description: 'a' },
      { name: 'b', description: 'desc b' },
      { name: 'c#1', description: 'c one', examples: ['c example'] },
      { name: 'c#2', description: 'c two', examples: ['c example'] },
    ]);
  });

  it('options of routes without examples have no examples key; those with examples all carry them', async () => {
    const model = decisionModel({ value: 'b' });
    const { router } = makeRouter(model);
    await routeOf(router, routingRequest(ask()));
    const [a, b, c1, c2] = model.decide.mock.calls[0]![0].question.options;
    expect(a).not.toHaveProperty('examples');
    expect(b).not.toHaveProperty('examples');
    expect(c1!.examples).toEqual(['c example']);
    expect(c2!.examples).toEqual(['c example']);
  });

  it('uses the configured question text', async () => {
    const model = decisionModel({ value: 'b' });
    const { router } = makeRouter(model, { question: 'Pick a tier' });
    await routeOf(router, routingRequest(ask()));
    expect(model.decide.mock.calls[0]![0].question.text).toBe('Pick a tier');
  });

  it('offers only the candidates (capability-filtered) through RoutingChatModel', async () => {
    const model = decisionModel({ value: 'z#2' });
    const { router } = makeRouter(model);
    const json = 'RESPONSE_FORMAT_JSON_SCHEMA' as const;
    const routing = new RoutingChatModel({
      routes: [
        { name: 'x', description: 'plain', model: fakeModel('x') },
        { name: 'y', description: 'json y', model: withCapabilities(fakeModel('y'), [json]) },
        {
          name: 'z',
          description: ['z one', 'z two'],
          model: withCapabilities(fakeModel('z'), [json]),
        },
      ],
      router,
      defaultRoute: 'x',
    });
    const response = await routing.chat({
      messages: [userMessage('json please')],
      parameters: {
        responseFormat: { type: 'json', jsonSchema: { name: 's', schema: { type: 'object' } } },
      },
    });
    expect(model.decide.mock.calls[0]![0].question.options.map((o) => o.name)).toEqual([
      'y',
      'z#1',
      'z#2',
    ]);
    expect(response.aiMessage.text).toBe('z');
  });

  it('validate(routes) rejects an option name that occurs twice, naming it', () => {
    const { router } = makeRouter(decisionModel({ value: 'a' }));
    const routes: ChatModelRoute[] = [
      { name: 'complex', descriptions: ['hard', 'long'] },
      { name: 'complex#1', descriptions: ['clash'] },
    ];
    expect(() => router.validate(routes)).toThrow(InvalidConfigurationException);
    expect(() => router.validate(routes)).toThrow('complex#1');
  });

  it('validate(routes) accepts distinct option names', () => {
    const { router } = makeRouter(decisionModel({ value: 'a' }));
    expect(() => router.validate(ROUTES)).not.toThrow();
  });

  it('RoutingChatModel construction fails with the duplicate option error', () => {
    const { router } = makeRouter(decisionModel({ value: 'a' }));
    const build = () =>
      new RoutingChatModel({
        routes: [
          { name: 'complex', description: ['hard', 'long'], model: fakeModel() },
          { name: 'complex#1', description: 'clash', model: fakeModel() },
        ],
        router,
        defaultRoute: 'complex',
      });
    expect(build).toThrow(InvalidConfigurationException);
    expect(build).toThrow('complex#1');
  });
});

describe('2.3.3 one candidate', () => {
  it('is chosen without calling the decision model', async () => {
    const model = decisionModel({ value: 'other' });
    const { router } = makeRouter(model);
    const only = fakeModel('only');
    const routing = new RoutingChatModel({
      routes: [{ name: 'only', description: 'the one', model: only }],
      router,
      defaultRoute: 'only',
    });
    const response = await routing.chat({ messages: ask() });
    expect(model.decide).not.toHaveBeenCalled();
    expect(only.chat).toHaveBeenCalledTimes(1);
    expect(response.aiMessage.text).toBe('only');
  });

  it('one candidate after capability filtering (not the default) is chosen without a decision', async () => {
    const model = decisionModel({ value: 'plain' });
    const { router } = makeRouter(model);
    const plain = fakeModel('plain');
    const json = withCapabilities(fakeModel('json'), ['RESPONSE_FORMAT_JSON_SCHEMA']);
    const routing = new RoutingChatModel({
      routes: [
        { name: 'plain', model: plain },
        { name: 'json', model: json },
      ],
      router,
      defaultRoute: 'plain',
    });
    await routing.chat({
      messages: ask(),
      parameters: { responseFormat: { type: 'json', jsonSchema: { name: 's', schema: {} } } },
    });
    expect(model.decide).not.toHaveBeenCalled();
    expect(json.chat).toHaveBeenCalledTimes(1);
    expect(plain.chat).not.toHaveBeenCalled();
  });

  it('a direct route() with one candidate chooses it without a decision', async () => {
    const model = decisionModel({ value: 'x' });
    const { router } = makeRouter(model);
    const result = await routeOf(
      router,
      routingRequest(ask(), [{ name: 'only', descriptions: [] }]),
    );
    expect(model.decide).not.toHaveBeenCalled();
    expect(result.routeName).toBe('only');
  });
});

describe('2.3.4 no user message or a blank last user message', () => {
  it.each<[string, ChatMessage[]]>([
    ['no messages', []],
    ['only a system message', [systemMessage('sys')]],
    ['only an AI message', [aiMessage('hello')]],
    [
      'a blank last user message',
      [userMessage('real question'), aiMessage('ok'), userMessage('   ')],
    ],
    ['a last user message of blank text parts', [userMessage([{ type: 'text', text: ' ' }])]],
  ])('%s → defaultRoute(), decision model not called', async (_, messages) => {
    const model = decisionModel({ value: 'c#1' });
    const { router } = makeRouter(model);
    const result = await routeOf(router, routingRequest(messages));
    expect(result.isDefaultRoute).toBe(true);
    expect(model.decide).not.toHaveBeenCalled();
  });

  it('through RoutingChatModel the configured default serves', async () => {
    const model = decisionModel({ value: 'c#1' });
    const { router } = makeRouter(model);
    const { routing, models } = routingModel(router, 'b');
    await routing.chat({ messages: [systemMessage('only system')] });
    expect(model.decide).not.toHaveBeenCalled();
    expect(served(models)).toEqual(['b']);
  });
});

describe('2.3.5 message text', () => {
  it('user parts are joined by \\n; media parts become [attached <type>]', async () => {
    const model = decisionModel({ value: 'a' });
    const { router } = makeRouter(model, { maxMessages: 1 });
    await routeOf(
      router,
      routingRequest([
        userMessage([
          { type: 'text', text: 'look' },
          { type: 'image', url: 'http://x/i.png' },
          { type: 'audio', data: 'AAA', mimeType: 'audio/wav' },
          { type: 'text', text: 'and' },
          { type: 'video', url: 'http://x/v.mp4' },
          { type: 'pdf', data: 'JVBER' },
        ]),
      ]),
    );
    expect(model.decide.mock.calls[0]![0].input).toBe(
      'look\n[attached image]\n[attached audio]\nand\n[attached video]\n[attached pdf]',
    );
  });

  it('AI messages contribute their text; system and tool messages contribute nothing', async () => {
    const model = decisionModel({ value: 'a' });
    const { router } = makeRouter(model, { maxMessages: 10 });
    await routeOf(
      router,
      routingRequest([
        systemMessage('system text'),
        userMessage('u1'),
        aiMessage('a1'),
        toolResultMessage('t1', 'tool text', 'tool'),
        userMessage([
          { type: 'text', text: 'u2' },
          { type: 'image', url: 'http://x' },
        ]),
      ]),
    );
    expect(model.decide.mock.calls[0]![0].input).toEqual({
      messages: [
        { role: 'user', text: 'u1' },
        { role: 'assistant', text: 'a1' },
        { role: 'user', text: 'u2\n[attached image]' },
      ],
    });
  });
});

describe('2.3.6 input', () => {
  const conversation: ChatMessage[] = [
    systemMessage('sys'),
    userMessage('u1'),
    aiMessage('a1'),
    userMessage('  '),
    aiMessage({ toolCalls: [{ id: 't', name: 'tool', arguments: '{}' }] }),
    toolResultMessage('t', 'result'),
    userMessage('u2'),
    aiMessage('a2'),
    userMessage('u3'),
    aiMessage('after the last user message'),
  ];

  it('maxMessages 1 → the last user message text as a string', async () => {
    const model = decisionModel({ value: 'a' });
    const { router } = makeRouter(model, { maxMessages: 1 });
    await routeOf(router, routingRequest(conversation));
    expect(model.decide.mock.calls[0]![0].input).toBe('u3');
  });

  it('default maxMessages (3) → the last three non-blank user/assistant messages up to the last user message', async () => {
    const model = decisionModel({ value: 'a' });
    const { router } = makeRouter(model);
    await routeOf(router, routingRequest(conversation));
    expect(model.decide.mock.calls[0]![0].input).toEqual({
      messages: [
        { role: 'user', text: 'u2' },
        { role: 'assistant', text: 'a2' },
        { role: 'user', text: 'u3' },
      ],
    });
  });

  it('a larger maxMessages keeps every non-blank user/assistant message, in order', async () => {
    const model = decisionModel({ value: 'a' });
    const { router } = makeRouter(model, { maxMessages: 50 });
    await routeOf(router, routingRequest(conversation));
    expect(model.decide.mock.calls[0]![0].input).toEqual({
      messages: [
        { role: 'user', text: 'u1' },
        { role: 'assistant', text: 'a1' },
        { role: 'user', text: 'u2' },
        { role: 'assistant', text: 'a2' },
        { role: 'user', text: 'u3' },
      ],
    });
  });

  it('maxMessages 2 with a single user message → { messages } of that one message', async () => {
    const model = decisionModel({ value: 'a' });
    const { router } = makeRouter(model, { maxMessages: 2 });
    await routeOf(router, routingRequest([userMessage('only')]));
    expect(model.decide.mock.calls[0]![0].input).toEqual({
      messages: [{ role: 'user', text: 'only' }],
    });
  });

  it('passes the routing signal to the decision model', async () => {
    const model = decisionModel({ value: 'a' });
    const { router } = makeRouter(model);
    const signal = new AbortController().signal;
    await routeOf(router, routingRequest(ask(), ROUTES, signal));
    expect(model.decide.mock.calls[0]![0].signal).toBe(signal);
  });
});

describe('2.3.7 answers', () => {
  it.each<[string, string]>([
    ['a', 'a'],
    ['b', 'b'],
    ['c#1', 'c'],
    ['c#2', 'c'],
  ])('value %s without probabilities → route %s', async (value, route) => {
    const { router } = makeRouter(decisionModel({ value }));
    const result = await routeOf(router, routingRequest(ask()));
    expect(result.routeName).toBe(route);
    expect(result.isDefaultRoute).toBe(false);
  });

  it('with probabilities each route scores the sum of its options; value is ignored', async () => {
    const { router } = makeRouter(
      decisionModel({ value: 'a', probabilities: { a: 0.3, b: 0.25, 'c#1': 0.2, 'c#2': 0.25 } }),
    );
    const result = await routeOf(router, routingRequest(ask()));
    expect(result.routeName).toBe('c');
  });

  it('ties go to the earlier route', async () => {
    const { router } = makeRouter(
      decisionModel({ value: 'c#1', probabilities: { a: 0.25, b: 0.5, 'c#1': 0.25, 'c#2': 0.25 } }),
    );
    const result = await routeOf(router, routingRequest(ask()));
    expect(result.routeName).toBe('b');
  });

  it('missing options count as 0', async () => {
    const { router } = makeRouter(decisionModel({ value: 'a', probabilities: { 'c#2': 0.1 } }));
    const result = await routeOf(router, routingRequest(ask()));
    expect(result.routeName).toBe('c');
  });

  it('through RoutingChatModel the winning route serves the request', async () => {
    const { router } = makeRouter(decisionModel({ value: 'c#2' }));
    const { routing, models } = routingModel(router, 'b');
    const response = await routing.chat({ messages: ask() });
    expect(served(models)).toEqual(['c']);
    expect(response.aiMessage.attributes?.chat_model_route).toBe('c');
  });

  it.each<[string, ChoiceAnswer]>([
    ['an unknown value', { value: 'zzz' }],
    ['a route name whose options are numbered', { value: 'c' }],
    ['an unknown probability key', { value: 'a', probabilities: { a: 0.5, ghost: 0.5 } }],
  ])('%s → InvalidDecisionResponseException, rethrown under FAIL', async (_, answer) => {
    const { router } = makeRouter(decisionModel(answer), {
      fallbackStrategy: FallbackStrategy.FAIL,
    });
    await expect(router.route(routingRequest(ask()))).rejects.toBeInstanceOf(
      InvalidDecisionResponseException,
    );
  });

  it.each<[string, ChoiceAnswer]>([
    ['an unknown value', { value: 'zzz' }],
    ['an unknown probability key', { value: 'a', probabilities: { a: 0.5, ghost: 0.5 } }],
  ])('%s → under DEFAULT_ROUTE a warning and defaultRoute()', async (_, answer) => {
    const { router, logger } = makeRouter(decisionModel(answer));
    const result = await routeOf(router, routingRequest(ask()));
    expect(result.isDefaultRoute).toBe(true);
    expect(logger.warn).toHaveBeenCalled();
  });
});

describe('2.3.8 minProbability', () => {
  it.each([FallbackStrategy.DEFAULT_ROUTE, FallbackStrategy.FAIL])(
    'no probabilities reported → RoutingException (fallback %s)',
    async (fallbackStrategy) => {
      const { router } = makeRouter(decisionModel({ value: 'b' }), {
        minProbability: 0.5,
        fallbackStrategy,
      });
      await expect(router.route(routingRequest(ask()))).rejects.toBeInstanceOf(RoutingException);
      await expect(router.route(routingRequest(ask()))).rejects.toThrow(
        'reported no probabilities',
      );
    },
  );

  it('best score below minProbability → defaultRoute()', async () => {
    const { router } = makeRouter(
      decisionModel({
        value: 'a',
        probabilities: { a: 0.375, b: 0.25, 'c#1': 0.25, 'c#2': 0.125 },
      }),
      { minProbability: 0.5 },
    );
    const result = await routeOf(router, routingRequest(ask()));
    expect(result.isDefaultRoute).toBe(true);
  });

  it('best score equal to minProbability → selected (scores summed over options)', async () => {
    const { router } = makeRouter(
      decisionModel({ value: 'a', probabilities: { a: 0.25, b: 0.25, 'c#1': 0.25, 'c#2': 0.25 } }),
      { minProbability: 0.5 },
    );
    const result = await routeOf(router, routingRequest(ask()));
    expect(result.routeName).toBe('c');
  });

  it('best score above minProbability → selected', async () => {
    const { router } = makeRouter(
      decisionModel({ value: 'a', probabilities: { a: 0.125, b: 0.75, 'c#1': 0.125 } }),
      { minProbability: 0.5 },
    );
    const result = await routeOf(router, routingRequest(ask()));
    expect(result.routeName).toBe('b');
  });

  it('through RoutingChatModel a low score serves the configured default', async () => {
    const { router } = makeRouter(
      decisionModel({ value: 'c#1', probabilities: { a: 0.25, b: 0.125, 'c#1': 0.125 } }),
      { minProbability: 0.5 },
    );
    const { routing, models } = routingModel(router, 'b');
    await routing.chat({ messages: ask() });
    expect(served(models)).toEqual(['b']);
  });
});

// A decision model that waits until the caller aborts, then rejects with `failure(signal)`.
function waitsForAbort(failure: (signal: AbortSignal) => unknown) {
  return decisionModel(
    (request) =>
      new Promise<ChoiceAnswer>((_, reject) => {
        request.signal?.addEventListener('abort', () => reject(failure(request.signal!)), {
          once: true,
        });
      }),
  );
}
describe('2.3.9 decision model failure', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('DEFAULT_ROUTE (the default) → warning logged, defaultRoute()', async () => {
    const failure = new Error('decider down');
    const model = decisionModel(async () => {
      throw failure;
    });
    const { router, logger } = makeRouter(model);
    const result = await routeOf(router, routingRequest(ask()));
    expect(result.isDefaultRoute).toBe(true);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(typeof logger.warn.mock.calls[0]![0]).toBe('string');
  });

  it('explicit DEFAULT_ROUTE through RoutingChatModel serves the configured default', async () => {
    const model = decisionModel(async () => {
      throw new Error('decider down');
    });
    const { router } = makeRouter(model, { fallbackStrategy: FallbackStrategy.DEFAULT_ROUTE });
    const { routing, models } = routingModel(router, 'c');
    await routing.chat({ messages: ask() });
    expect(served(models)).toEqual(['c']);
  });

  it('FAIL → the same error is rethrown', async () => {
    const failure = new Error('decider down');
    const { router, logger } = makeRouter(
      decisionModel(async () => {
        throw failure;
      }),
      { fallbackStrategy: FallbackStrategy.FAIL },
    );
    await expect(router.route(routingRequest(ask()))).rejects.toBe(failure);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('FAIL through RoutingChatModel → the same error, no model called', async () => {
    const failure = { code: 'DECIDER' };
    const { router } = makeRouter(
      decisionModel(async () => {
        throw failure;
      }),
      { fallbackStrategy: FallbackStrategy.FAIL },
    );
    const { routing, models } = routingModel(router, 'b');
    await expect(routing.chat({ messages: ask() })).rejects.toBe(failure);
    expect(served(models)).toEqual([]);
  });

  it('the default logger is a console logger (console.warn)', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const router = new DecisionModelChatModelRouter(
      decisionModel(async () => {
        throw new Error('decider down');
      }),
    );
    const result = await routeOf(router, routingRequest(ask()));
    expect(result.isDefaultRoute).toBe(true);
    expect(warn).toHaveBeenCalled();
  });

  it('an abort during the decision is never turned into a fallback (DEFAULT_ROUTE)', async () => {
    const controller = new AbortController();
    const reason = { why: 'caller left' };
    const model = waitsForAbort((signal) => signal.reason);
    const { router, logger } = makeRouter(model);
    const call = router.route(routingRequest(ask(), ROUTES, controller.signal));
    await flushMicrotasks();
    expect(model.decide).toHaveBeenCalledTimes(1);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('an abort during the decision surfaces even when the decision model then throws something else', async () => {
    const controller = new AbortController();
    const reason = new Error('aborted by caller');
    const model = waitsForAbort(() => new Error('socket closed'));
    const { router, logger } = makeRouter(model);
    const call = Promise.resolve(router.route(routingRequest(ask(), ROUTES, controller.signal)));
    const outcome = call.then(
      (result) => ({ resolved: result }),
      (error: unknown) => ({ rejected: error }),
    );
    await flushMicrotasks();
    controller.abort(reason);
    const settled = await outcome;
    expect(settled).not.toHaveProperty('resolved');
    expect(['aborted by caller', 'socket closed']).toContain(
      ((settled as { rejected: Error }).rejected as Error).message,
    );
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('an abort raised while the decision model is being called is never turned into a fallback', async () => {
    const controller = new AbortController();
    const reason = { why: 'caller left' };
    const model = decisionModel(async (request) => {
      controller.abort(reason);
      throw request.signal?.reason;
    });
    const { router, logger } = makeRouter(model);
    await expect(router.route(routingRequest(ask(), ROUTES, controller.signal))).rejects.toBe(
      reason,
    );
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('a signal aborted before routing rejects with the reason, no fallback', async () => {
    const controller = new AbortController();
    const reason = { why: 'before' };
    controller.abort(reason);
    const { router, logger } = makeRouter(decisionModel({ value: 'a' }));
    await expect(router.route(routingRequest(ask(), ROUTES, controller.signal))).rejects.toBe(
      reason,
    );
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('through RoutingChatModel an abort during the decision rejects with the reason; no model called', async () => {
    const controller = new AbortController();
    const reason = { why: 'caller left' };
    const model = waitsForAbort((signal) => signal.reason);
    const { router, logger } = makeRouter(model);
    const { routing, models } = routingModel(router, 'b');
    const call = routing.chat({ messages: ask() }, { signal: controller.signal });
    await flushMicrotasks();
    expect(model.decide).toHaveBeenCalledTimes(1);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(served(models)).toEqual([]);
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
