import { describe, expect, it, jest } from '@jest/globals';
import { aiMessage, toolResultMessage, userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import type { ChatModelRouterFunction } from '../../../../src/core/routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { deferred, fakeModel } from './fakes.js';

const request: ChatRequest = { messages: [userMessage('Hello')] };

function setup(router: ChatModelRouterFunction) {
  const simple = fakeModel('simple');
  const complex = fakeModel('complex');
  const routerMock = jest.fn<ChatModelRouterFunction>(router);
  const model = new RoutingChatModel({
    routes: [
      { name: 'simple', model: simple },
      { name: 'complex', model: complex },
    ],
    router: routerMock,
    defaultRoute: 'simple',
  });
  const noModelCalled = () => {
    expect(simple.chat).not.toHaveBeenCalled();
    expect(complex.chat).not.toHaveBeenCalled();
  };
  return { model, router: routerMock, simple, complex, noModelCalled };
}

describe('2.2.8 abort', () => {
  it('a signal aborted before the call rejects with its reason; neither router nor model runs', async () => {
    const { model, router, noModelCalled } = setup(() => ChatModelRoutingResult.route('simple'));
    const controller = new AbortController();
    const reason = new Error('caller went away');
    controller.abort(reason);

    await expect(model.chat(request, { signal: controller.signal })).rejects.toBe(reason);
    expect(router).not.toHaveBeenCalled();
    noModelCalled();
  });

  it('an abort without an explicit reason rejects with an AbortError', async () => {
    const { model, noModelCalled } = setup(() => ChatModelRoutingResult.route('simple'));
    const controller = new AbortController();
    controller.abort();
    await expect(model.chat(request, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    noModelCalled();
  });

  it('an abort during a slow async router rejects at once; the model is never called', async () => {
    const routed = deferred<ChatModelRoutingResult>();
    const { model, router, noModelCalled } = setup(() => routed.promise);
    const controller = new AbortController();
    const reason = new Error('timeout');

    const call = model.chat(request, { signal: controller.signal });
    await Promise.resolve();
    expect(router).toHaveBeenCalledTimes(1);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);

    // the router answering late must not start the model
    routed.resolve(ChatModelRoutingResult.route('complex'));
    await routed.promise;
    await new Promise((resolve) => setImmediate(resolve));
    noModelCalled();
  });

  it('a router that ignores the signal and resolves after the abort does not reach the model', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const { model, noModelCalled } = setup(() => {
      controller.abort(reason);
      return ChatModelRoutingResult.route('complex');
    });
    await expect(model.chat(request, { signal: controller.signal })).rejects.toBe(reason);
    noModelCalled();
  });

  it('the router receives the signal so it can stop its own work', async () => {
    const controller = new AbortController();
    const { model, router } = setup(() => ChatModelRoutingResult.route('simple'));
    await model.chat(request, { signal: controller.signal });
    expect(router.mock.calls[0]![0].signal).toBe(controller.signal);
  });

  it('an aborted tool loop is not served either', async () => {
    const { model, noModelCalled } = setup(() => ChatModelRoutingResult.route('simple'));
    const controller = new AbortController();
    const reason = new Error('gone');
    controller.abort(reason);
    const messages = [
      userMessage('Weather?'),
      aiMessage({
        toolCalls: [{ id: 'c', name: 'w', arguments: '{}' }],
        attributes: { chat_model_route: 'complex' },
      }),
      toolResultMessage('c', 'sunny'),
    ];
    await expect(model.chat({ messages }, { signal: controller.signal })).rejects.toBe(reason);
    noModelCalled();
  });

  it('an abort while the model runs rejects with the reason even if the model ignores it', async () => {
    const { model, complex } = setup(() => ChatModelRoutingResult.route('complex'));
    const answer = deferred<ChatResponse>();
    complex.chat.mockReturnValueOnce(answer.promise);
    const controller = new AbortController();
    const reason = new Error('user cancelled');

    const call = model.chat(request, { signal: controller.signal });
    for (let tick = 0; tick < 100 && complex.chat.mock.calls.length === 0; tick++) {
      await Promise.resolve();
    }
    expect(complex.chat).toHaveBeenCalledTimes(1);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    answer.resolve({ aiMessage: { role: 'assistant', text: 'late' } });
  });

  it('a signal that never aborts changes nothing', async () => {
    const { model, simple } = setup(async () => ChatModelRoutingResult.route('simple'));
    const response = await model.chat(request, { signal: new AbortController().signal });
    expect(response.aiMessage.text).toBe('simple');
    expect(simple.chat).toHaveBeenCalledTimes(1);
  });
});
