import { describe, expect, it, jest } from '@jest/globals';
import type { ChatCallOptions } from '../../../../src/core/chat/chat-model.js';
import { systemMessage, userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { RoutingException } from '../../../../src/core/errors/exceptions.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { ROUTE_ATTRIBUTE } from '../../../../src/core/chat/call-attributes.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { fakeModel, routeTo, type ChatFn } from './fakes.js';

function request(): ChatRequest {
  return {
    messages: [systemMessage('Be brief'), userMessage('Hello')],
    parameters: { temperature: 0.2, maxOutputTokens: 50 },
  };
}

function twoRoutes(target = 'complex') {
  const simple = fakeModel('simple');
  const complex = fakeModel('complex');
  const model = new RoutingChatModel({
    routes: [
      { name: 'simple', model: simple },
      { name: 'complex', model: complex },
    ],
    router: routeTo(target),
    defaultRoute: 'simple',
  });
  return { model, simple, complex };
}

describe('2.2.5 calling the chosen model', () => {
  it("passes the caller's request unchanged and only the route attribute when no options", async () => {
    const { model, complex } = twoRoutes();
    const original = request();
    const snapshot = structuredClone(original);
    await model.chat(original);

    expect(complex.chat).toHaveBeenCalledTimes(1);
    const [seenRequest, seenOptions] = complex.chat.mock.calls[0]!;
    expect(seenRequest).toBe(original);
    expect(original).toEqual(snapshot);
    expect(seenOptions).toStrictEqual({ attributes: { chat_model_route: 'complex' } });
  });

  it('adds the route to the caller attributes and passes signal and observer through', async () => {
    const { model, complex } = twoRoutes();
    const signal = new AbortController().signal;
    const observer = jest.fn<(event: RoutingEvent) => void>();
    const attributes = { tenant: 'acme', [ROUTE_ATTRIBUTE]: 'spoofed' };
    await model.chat(request(), { attributes, signal, observer });

    const seenOptions = complex.chat.mock.calls[0]![1]!;
    expect(seenOptions).toStrictEqual({
      attributes: { tenant: 'acme', chat_model_route: 'complex' },
      signal,
      observer,
    });
    expect(seenOptions.signal).toBe(signal);
    // the caller's object is not touched
    expect(attributes).toEqual({ tenant: 'acme', chat_model_route: 'spoofed' });
  });

  it('includes signal but not observer when only a signal is given', async () => {
    const { model, complex } = twoRoutes();
    const signal = new AbortController().signal;
    await model.chat(request(), { signal });
    const seenOptions: ChatCallOptions = complex.chat.mock.calls[0]![1]!;
    expect(Object.keys(seenOptions).toSorted()).toEqual(['attributes', 'signal']);
  });

  it("propagates the model's error unchanged and does not try another route", async () => {
    const { model, simple, complex } = twoRoutes();
    const failure = Object.assign(new Error('upstream 500'), { status: 500 });
    complex.chat.mockRejectedValueOnce(failure);
    await expect(model.chat(request())).rejects.toBe(failure);
    expect(complex.chat).toHaveBeenCalledTimes(1);
    expect(simple.chat).not.toHaveBeenCalled();
  });

  it('a model that throws synchronously still gives a rejected promise', async () => {
    const { model, complex } = twoRoutes();
    const failure = new Error('sync failure');
    complex.chat.mockImplementationOnce((() => {
      throw failure;
    }) as unknown as ChatFn);
    await expect(model.chat(request())).rejects.toBe(failure);
  });

  it('rejects a request without a messages array, naming messages, before asking the router', async () => {
    const router = jest.fn(() => ChatModelRoutingResult.route('simple'));
    const model = new RoutingChatModel({
      routes: [{ name: 'simple', model: fakeModel('simple') }],
      router,
      defaultRoute: 'simple',
    });
    await expect(model.chat({} as ChatRequest)).rejects.toThrow(RoutingException);
    await expect(model.chat({} as ChatRequest)).rejects.toThrow('messages');
    expect(router).not.toHaveBeenCalled();
  });
});

describe('2.2.6 response carries the route attribute', () => {
  it('returns a copy whose aiMessage.attributes.chat_model_route is the route name', async () => {
    const { model, complex } = twoRoutes();
    const original: ChatResponse = {
      aiMessage: { role: 'assistant', text: 'Hi', attributes: { cached: true } },
      modelName: 'gpt-x',
      tokenUsage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
      finishReason: 'stop',
      id: 'resp-1',
    };
    const before = structuredClone(original);
    complex.chat.mockResolvedValueOnce(original);

    const response = await model.chat(request());
    expect(response).toEqual({
      ...before,
      aiMessage: { ...before.aiMessage, attributes: { cached: true, chat_model_route: 'complex' } },
    });
    expect(response).not.toBe(original);
    expect(original).toEqual(before);
  });

  it('sets the attribute when the model gave none', async () => {
    const { model } = twoRoutes('simple');
    const response = await model.chat(request());
    expect(response.aiMessage).toEqual({
      role: 'assistant',
      text: 'simple',
      attributes: { chat_model_route: 'simple' },
    });
  });

  it('when nested, the inner model sees the inner route and the caller sees the outer route', async () => {
    const fast = fakeModel('fast');
    const inner = new RoutingChatModel({
      routes: [{ name: 'fast', model: fast }],
      router: routeTo('fast'),
      defaultRoute: 'fast',
    });
    const outer = new RoutingChatModel({
      routes: [
        { name: 'simple', model: fakeModel('simple') },
        { name: 'complex', model: inner },
      ],
      router: routeTo('complex'),
      defaultRoute: 'simple',
    });
    const response = await outer.chat(request(), { attributes: { tenant: 'acme' } });

    expect(fast.chat.mock.calls[0]![1]).toStrictEqual({
      attributes: { tenant: 'acme', chat_model_route: 'fast' },
    });
    expect(response.aiMessage.attributes).toEqual({ chat_model_route: 'complex' });
  });

  it('a response without aiMessage is a RoutingException naming the route, not a success', async () => {
    const { model, complex } = twoRoutes();
    complex.chat.mockResolvedValueOnce({} as ChatResponse);
    await expect(model.chat(request())).rejects.toThrow(RoutingException);
    complex.chat.mockResolvedValueOnce(undefined as unknown as ChatResponse);
    await expect(model.chat(request())).rejects.toThrow("model of route 'complex'");
  });
});
