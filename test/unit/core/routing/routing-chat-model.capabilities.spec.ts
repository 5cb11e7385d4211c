import { describe, expect, it, jest } from '@jest/globals';
import { Capability } from '../../../../src/core/chat/capability.js';
import { userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type {
  ChatModelRouterFunction,
  ChatModelRoutingRequest,
} from '../../../../src/core/routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { fakeModel, withCapabilities } from './fakes.js';

const JSON_SCHEMA = Capability.RESPONSE_FORMAT_JSON_SCHEMA;
const schemaRequest: ChatRequest = {
  messages: [userMessage('Give me JSON')],
  parameters: {
    responseFormat: { type: 'json', jsonSchema: { name: 'answer', schema: { type: 'object' } } },
  },
};

function capturingRouter(answer: (request: ChatModelRoutingRequest) => ChatModelRoutingResult) {
  return jest.fn<ChatModelRouterFunction>(answer);
}

describe('2.2.2 capabilities and default parameters', () => {
  it("supportedCapabilities() is the union of the routes' capabilities", () => {
    const model = new RoutingChatModel({
      routes: [
        { name: 'plain', model: fakeModel('plain') },
        { name: 'json', model: withCapabilities(fakeModel('json'), [JSON_SCHEMA]) },
        {
          name: 'prefill',
          model: withCapabilities(fakeModel('prefill'), [Capability.ASSISTANT_PREFILL]),
        },
      ],
      router: () => ChatModelRoutingResult.defaultRoute(),
      defaultRoute: 'plain',
    });
    expect([...model.supportedCapabilities()].toSorted()).toEqual(
      [Capability.ASSISTANT_PREFILL, JSON_SCHEMA].toSorted(),
    );
  });

  it('a model whose supportedCapabilities() throws declares nothing, as in a ModelRouter', async () => {
    const broken = {
      ...fakeModel('broken'),
      supportedCapabilities: (): ReadonlySet<Capability> => {
        throw new TypeError('not ready');
      },
    };
    const router = capturingRouter(() => ChatModelRoutingResult.defaultRoute());
    const model = new RoutingChatModel({
      routes: [
        { name: 'broken', model: broken },
        { name: 'json', model: withCapabilities(fakeModel('json'), [JSON_SCHEMA]) },
      ],
      router,
      defaultRoute: 'broken',
    });

    expect([...model.supportedCapabilities()]).toEqual([JSON_SCHEMA]);
    const answer = await model.chat(schemaRequest);
    expect(router.mock.calls[0]![0].routes.map((route) => route.name)).toEqual(['json']);
    expect(answer.aiMessage.text).toBe('json');
  });

  it('supportedCapabilities() is empty when no route declares any', () => {
    const model = new RoutingChatModel({
      routes: [{ name: 'plain', model: fakeModel('plain') }],
      router: () => ChatModelRoutingResult.defaultRoute(),
      defaultRoute: 'plain',
    });
    expect(model.supportedCapabilities().size).toBe(0);
  });

  it("defaultRequestParameters() is {} even when the routes' models have defaults", () => {
    const withDefaults = {
      ...fakeModel('a'),
      defaultRequestParameters: () => ({ temperature: 0.1 }),
    };
    const model = new RoutingChatModel({
      routes: [{ name: 'a', model: withDefaults }],
      router: () => ChatModelRoutingResult.defaultRoute(),
      defaultRoute: 'a',
    });
    expect(model.defaultRequestParameters()).toEqual({});
  });
});

const routes = () => [
  { name: 'simple', model: fakeModel('simple') },
  { name: 'medium', model: withCapabilities(fakeModel('medium'), [JSON_SCHEMA]) },
  {
    name: 'complex',
    model: withCapabilities(fakeModel('complex'), [JSON_SCHEMA, Capability.ASSISTANT_PREFILL]),
  },
];

describe('2.2.3 candidate routes by required capability', () => {
  it('a json response format with a schema limits the router to supporting routes, in order', async () => {
    const router = capturingRouter(() => ChatModelRoutingResult.route('complex'));
    const model = new RoutingChatModel({ routes: routes(), router, defaultRoute: 'complex' });
    await model.chat(schemaRequest);
    const seen = router.mock.calls[0]![0];
    expect(seen.routes.map((route) => route.name)).toEqual(['medium', 'complex']);
    expect(seen.defaultRoute).toBe('complex');
  });

  it('the default route is the first candidate when the configured default is not one', async () => {
    const configured = routes();
    const router = capturingRouter(() => ChatModelRoutingResult.defaultRoute());
    const model = new RoutingChatModel({ routes: configured, router, defaultRoute: 'simple' });
    const response = await model.chat(schemaRequest);

    expect(router.mock.calls[0]![0].defaultRoute).toBe('medium');
    expect(configured[1]!.model.chat).toHaveBeenCalledTimes(1);
    expect(configured[0]!.model.chat).not.toHaveBeenCalled();
    expect(response.aiMessage.attributes?.chat_model_route).toBe('medium');
    // the configured default itself does not change
    expect(model.defaultRoute()).toBe('simple');
  });

  it('json without a schema, text, or no format require nothing: every route is a candidate', async () => {
    const formats = [{ type: 'json' as const }, { type: 'text' as const }, undefined];
    for (const responseFormat of formats) {
      const router = capturingRouter(() => ChatModelRoutingResult.defaultRoute());
      const model = new RoutingChatModel({ routes: routes(), router, defaultRoute: 'simple' });
      const parameters = responseFormat ? { responseFormat } : {};
      await model.chat({ messages: [userMessage('hi')], parameters });
      const seen = router.mock.calls[0]![0];
      expect(seen.routes.map((route) => route.name)).toEqual(['simple', 'medium', 'complex']);
      expect(seen.defaultRoute).toBe('simple');
    }
  });

  it('when no route supports the requirement, every route is a candidate', async () => {
    const configured = [
      { name: 'simple', model: fakeModel('simple') },
      {
        name: 'complex',
        model: withCapabilities(fakeModel('complex'), [Capability.ASSISTANT_PREFILL]),
      },
    ];
    const router = capturingRouter(() => ChatModelRoutingResult.defaultRoute());
    const model = new RoutingChatModel({ routes: configured, router, defaultRoute: 'complex' });
    await model.chat(schemaRequest);
    const seen = router.mock.calls[0]![0];
    expect(seen.routes.map((route) => route.name)).toEqual(['simple', 'complex']);
    expect(seen.defaultRoute).toBe('complex');
    expect(configured[1]!.model.chat).toHaveBeenCalledTimes(1);
  });

  it('the router sees candidates as ChatModelRoute: no model, examples only when present', async () => {
    const router = capturingRouter(() => ChatModelRoutingResult.defaultRoute());
    const model = new RoutingChatModel({
      routes: [
        { name: 'simple', description: 'Chat', model: fakeModel('simple') },
        { name: 'complex', description: ['A', 'B'], examples: ['Prove it'], model: fakeModel('c') },
      ],
      router,
      defaultRoute: 'simple',
    });
    await model.chat({ messages: [userMessage('hi')] });
    const seen = router.mock.calls[0]![0].routes;
    expect(seen).toEqual([
      { name: 'simple', descriptions: ['Chat'] },
      { name: 'complex', descriptions: ['A', 'B'], examples: ['Prove it'] },
    ]);
    expect(Object.keys(seen[0]!).toSorted()).toEqual(['descriptions', 'name']);
  });
});
