import { describe, expect, it, jest } from '@jest/globals';
import { Capability } from '../../../../src/core/chat/capability.js';
import { userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import { RoutingException } from '../../../../src/core/errors/exceptions.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';
import type {
  ChatModelRouter,
  ChatModelRouterFunction,
} from '../../../../src/core/routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { fakeModel, withCapabilities } from './fakes.js';

const request: ChatRequest = { messages: [userMessage('Hello')] };

function setup(router: ChatModelRouter | ChatModelRouterFunction) {
  const simple = withCapabilities(fakeModel('simple'), [Capability.RESPONSE_FORMAT_JSON_SCHEMA]);
  const complex = fakeModel('complex');
  const model = new RoutingChatModel({
    routes: [
      { name: 'simple', description: 'Small talk', model: simple },
      { name: 'complex', description: 'Hard work', model: complex },
    ],
    router,
    defaultRoute: 'complex',
  });
  const noModelCalled = () => {
    expect(simple.chat).not.toHaveBeenCalled();
    expect(complex.chat).not.toHaveBeenCalled();
  };
  return { model, simple, complex, noModelCalled };
}

async function routingError(promise: Promise<unknown>): Promise<RoutingException> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RoutingException);
  return error as RoutingException;
}

describe('2.2.4 router result', () => {
  it('null or undefined → RoutingException naming ChatModelRoutingResult.defaultRoute()', async () => {
    for (const answer of [null, undefined]) {
      const { model, noModelCalled } = setup(() => answer as unknown as ChatModelRoutingResult);
      const error = await routingError(model.chat(request));
      expect(error.message).toContain('ChatModelRoutingResult.defaultRoute()');
      noModelCalled();
    }
  });

  it('a plain object or bare name is not a ChatModelRoutingResult', async () => {
    const lookalike = { routeName: 'simple', isDefaultRoute: false };
    for (const answer of [lookalike, 'simple']) {
      const { model, noModelCalled } = setup(() => answer as unknown as ChatModelRoutingResult);
      const error = await routingError(model.chat(request));
      expect(error.message).toContain('ChatModelRoutingResult.defaultRoute()');
      noModelCalled();
    }
    const { model } = setup(() => 'simple' as unknown as ChatModelRoutingResult);
    await expect(model.chat(request)).rejects.toThrow("ChatModelRoutingResult.route('simple')");
  });

  it("an unknown name → RoutingException containing unknown route 'medium'", async () => {
    const { model, noModelCalled } = setup(() => ChatModelRoutingResult.route('medium'));
    const error = await routingError(model.chat(request));
    expect(error.message).toContain("unknown route 'medium'");
    expect(error.message).toContain("'simple', 'complex'");
    noModelCalled();
  });

  it("a known route that is not a candidate → Route 'complex' does not support", async () => {
    const { model, noModelCalled } = setup(() => ChatModelRoutingResult.route('complex'));
    const jsonRequest: ChatRequest = {
      messages: [userMessage('JSON please')],
      parameters: { responseFormat: { type: 'json', jsonSchema: { name: 'x', schema: {} } } },
    };
    const error = await routingError(model.chat(jsonRequest));
    expect(error.message).toContain("Route 'complex' does not support");
    expect(error.message).toContain(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
    noModelCalled();
  });

  it('router errors propagate unchanged, thrown or rejected, and no model is called', async () => {
    const failure = new TypeError('router broke');
    const thrower = setup(() => {
      throw failure;
    });
    await expect(thrower.model.chat(request)).rejects.toBe(failure);
    thrower.noModelCalled();

    const rejecter = setup(async () => Promise.reject(failure));
    await expect(rejecter.model.chat(request)).rejects.toBe(failure);
    rejecter.noModelCalled();
  });

  it('route(name) calls that route; defaultRoute() calls the default route', async () => {
    const named = setup(() => ChatModelRoutingResult.route('simple'));
    await named.model.chat(request);
    expect(named.simple.chat).toHaveBeenCalledTimes(1);
    expect(named.complex.chat).not.toHaveBeenCalled();

    const byDefault = setup(() => ChatModelRoutingResult.defaultRoute());
    await byDefault.model.chat(request);
    expect(byDefault.complex.chat).toHaveBeenCalledTimes(1);
    expect(byDefault.simple.chat).not.toHaveBeenCalled();
  });

  it('an object router is called as a method, with the routing request', async () => {
    class Router implements ChatModelRouter {
      private readonly target = 'simple';
      route() {
        return ChatModelRoutingResult.route(this.target);
      }
    }
    const { model, simple } = setup(new Router());
    await model.chat(request);
    expect(simple.chat).toHaveBeenCalledTimes(1);
  });

  it('the routing request carries chatRequest, candidates, attributes, signal, defaultRoute, observer', async () => {
    const router = jest.fn<ChatModelRouterFunction>(() => ChatModelRoutingResult.defaultRoute());
    const { model } = setup(router);
    const signal = new AbortController().signal;
    const observer = jest.fn<(event: RoutingEvent) => void>();
    const attributes = { tenant: 'acme' };
    await model.chat(request, { signal, attributes, observer });

    expect(router).toHaveBeenCalledTimes(1);
    const seen = router.mock.calls[0]![0];
    expect(seen.chatRequest).toBe(request);
    expect(seen.routes.map((route) => route.name)).toEqual(['simple', 'complex']);
    expect(seen.attributes).toEqual({ tenant: 'acme' });
    expect(seen.signal).toBe(signal);
    expect(seen.observer).toBe(observer);
    expect(seen.defaultRoute).toBe('complex');
  });

  it('without signal or observer the routing request has no such keys and empty attributes', async () => {
    const router = jest.fn<ChatModelRouterFunction>(() => ChatModelRoutingResult.defaultRoute());
    const { model } = setup(router);
    await model.chat(request);
    const seen = router.mock.calls[0]![0];
    expect(Object.keys(seen).toSorted()).toEqual([
      'attributes',
      'chatRequest',
      'defaultRoute',
      'routes',
    ]);
    expect(seen.attributes).toEqual({});
  });

  it('a router cannot change the attributes the model is called with', async () => {
    const router = jest.fn<ChatModelRouterFunction>((routing) => {
      expect(() => {
        (routing.attributes as Record<string, unknown>).tenant = 'evil';
      }).toThrow(TypeError);
      return ChatModelRoutingResult.route('simple');
    });
    const { model, simple } = setup(router);
    await model.chat(request, { attributes: { tenant: 'acme' } });
    expect(simple.chat.mock.calls[0]![1]?.attributes).toEqual({
      tenant: 'acme',
      chat_model_route: 'simple',
    });
  });
});
