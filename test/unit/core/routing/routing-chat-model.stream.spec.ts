import { describe, expect, it, jest } from '@jest/globals';
import type { ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import { aiMessage, toolResultMessage, userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { RoutingException } from '../../../../src/core/errors/exceptions.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';
import type { ChatModelRouterFunction } from '../../../../src/core/routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { collect, deferred, fakeModel, type StreamFn } from './fakes.js';

const request: ChatRequest = { messages: [userMessage('Tell me a story')] };
const finalResponse: ChatResponse = {
  aiMessage: { role: 'assistant', text: 'Once upon', attributes: { provider: 'fake' } },
  finishReason: 'stop',
};

/** A streaming model whose stream yields `events` and records whether it was closed. */
function streamingModel(events: ChatStreamEvent[] | (() => AsyncGenerator<ChatStreamEvent>)) {
  const state = { closed: false };
  const stream = jest.fn<StreamFn>(async function* () {
    try {
      if (typeof events === 'function') yield* events();
      else yield* events;
    } finally {
      state.closed = true;
    }
  });
  return { ...fakeModel('streaming'), stream, state };
}

function setup(
  routed: ReturnType<typeof streamingModel> | ReturnType<typeof fakeModel>,
  router: ChatModelRouterFunction = () => ChatModelRoutingResult.route('story'),
) {
  const routerMock = jest.fn<ChatModelRouterFunction>(router);
  const other = fakeModel('other');
  const model = new RoutingChatModel({
    routes: [
      { name: 'other', model: other },
      { name: 'story', model: routed },
    ],
    router: routerMock,
    defaultRoute: 'other',
  });
  return { model, router: routerMock, other };
}

describe('2.2.9 streaming', () => {
  it('routes lazily: nothing happens until iteration starts', async () => {
    const routed = streamingModel([{ type: 'complete', response: finalResponse }]);
    const { model, router } = setup(routed);
    const stream = model.stream(request);
    expect(router).not.toHaveBeenCalled();
    expect(routed.stream).not.toHaveBeenCalled();

    await stream.next();
    expect(router).toHaveBeenCalledTimes(1);
    expect(routed.stream).toHaveBeenCalledTimes(1);
  });

  it('forwards events in order; the complete response carries the route attribute', async () => {
    const toolCall = { id: 't1', name: 'lookup', arguments: '{}' };
    const events: ChatStreamEvent[] = [
      { type: 'text-delta', text: 'Once' },
      { type: 'text-delta', text: ' upon' },
      { type: 'tool-call', toolCall },
      { type: 'complete', response: finalResponse },
    ];
    const before = structuredClone(finalResponse);
    const routed = streamingModel(events);
    const { model } = setup(routed);
    const received = await collect(model.stream(request, { attributes: { tenant: 'acme' } }));

    expect(received).toEqual([
      events[0],
      events[1],
      events[2],
      {
        type: 'complete',
        response: {
          ...before,
          aiMessage: {
            ...before.aiMessage,
            attributes: { provider: 'fake', chat_model_route: 'story' },
          },
        },
      },
    ]);
    expect(finalResponse).toEqual(before);
    expect(routed.stream.mock.calls[0]![0]).toBe(request);
    expect(routed.stream.mock.calls[0]![1]).toStrictEqual({
      attributes: { tenant: 'acme', chat_model_route: 'story' },
    });
  });

  it('a route model without stream is served by chat as one text delta plus complete', async () => {
    const plain = fakeModel('whole answer');
    const { model } = setup(plain);
    const received = await collect(model.stream(request));
    expect(plain.chat).toHaveBeenCalledTimes(1);
    expect(plain.chat.mock.calls[0]![1]).toStrictEqual({
      attributes: { chat_model_route: 'story' },
    });
    expect(received).toEqual([
      { type: 'text-delta', text: 'whole answer' },
      {
        type: 'complete',
        response: {
          aiMessage: {
            role: 'assistant',
            text: 'whole answer',
            attributes: { chat_model_route: 'story' },
          },
        },
      },
    ]);
  });

  it('routing errors surface as the rejection of the iteration', async () => {
    const routed = streamingModel([{ type: 'complete', response: finalResponse }]);
    const unknown = setup(routed, () => ChatModelRoutingResult.route('medium'));
    await expect(collect(unknown.model.stream(request))).rejects.toThrow(RoutingException);
    await expect(collect(unknown.model.stream(request))).rejects.toThrow("unknown route 'medium'");

    const failure = new Error('router down');
    const failing = setup(routed, async () => Promise.reject(failure));
    await expect(collect(failing.model.stream(request))).rejects.toBe(failure);
    expect(routed.stream).not.toHaveBeenCalled();
  });

  it("the route model's stream errors propagate unchanged after the events before them", async () => {
    const failure = new Error('connection reset');
    const routed = streamingModel(async function* () {
      yield { type: 'text-delta', text: 'Once' };
      throw failure;
    });
    const { model } = setup(routed);
    const received: ChatStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of model.stream(request)) received.push(event);
      })(),
    ).rejects.toBe(failure);
    expect(received).toEqual([{ type: 'text-delta', text: 'Once' }]);
  });

  it('a stream that ends without complete is a RoutingException, not a truncated success', async () => {
    const routed = streamingModel([{ type: 'text-delta', text: 'Once' }]);
    const { model } = setup(routed);
    await expect(collect(model.stream(request))).rejects.toThrow(RoutingException);
    await expect(collect(model.stream(request))).rejects.toThrow('without a complete event');
  });

  it('stops at complete and closes the source', async () => {
    const routed = streamingModel([
      { type: 'complete', response: finalResponse },
      { type: 'text-delta', text: 'after the end' },
    ]);
    const { model } = setup(routed);
    const received = await collect(model.stream(request));
    expect(received.map((event) => event.type)).toEqual(['complete']);
    expect(routed.state.closed).toBe(true);
  });

  it('a consumer that stops early closes the route model stream', async () => {
    const routed = streamingModel([
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'complete', response: finalResponse },
    ]);
    const { model } = setup(routed);
    for await (const event of model.stream(request)) {
      expect(event).toEqual({ type: 'text-delta', text: 'a' });
      break;
    }
    expect(routed.state.closed).toBe(true);
  });

  it('the tool loop sticks when streaming too', async () => {
    const routed = streamingModel([{ type: 'complete', response: finalResponse }]);
    const { model, router } = setup(routed, () => ChatModelRoutingResult.route('other'));
    const messages = [
      userMessage('Weather?'),
      aiMessage({
        toolCalls: [{ id: 'c', name: 'w', arguments: '{}' }],
        attributes: { chat_model_route: 'story' },
      }),
      toolResultMessage('c', 'sunny'),
    ];
    const received = await collect(model.stream({ messages }));
    expect(router).not.toHaveBeenCalled();
    expect(received.at(-1)).toMatchObject({
      type: 'complete',
      response: { aiMessage: { attributes: { chat_model_route: 'story' } } },
    });
  });

  it('an aborted signal rejects the iteration with its reason before routing', async () => {
    const routed = streamingModel([{ type: 'complete', response: finalResponse }]);
    const { model, router } = setup(routed);
    const controller = new AbortController();
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(collect(model.stream(request, { signal: controller.signal }))).rejects.toBe(
      reason,
    );
    expect(router).not.toHaveBeenCalled();
    expect(routed.stream).not.toHaveBeenCalled();
  });

  it('an abort while waiting for the next event rejects with the reason', async () => {
    const stalled = deferred<void>();
    const routed = streamingModel(async function* () {
      yield { type: 'text-delta', text: 'Once' };
      await stalled.promise; // a source that ignores the signal
      yield { type: 'complete', response: finalResponse };
    });
    const { model } = setup(routed);
    const controller = new AbortController();
    const reason = new Error('cancelled mid-stream');
    const stream = model.stream(request, { signal: controller.signal });

    expect(await stream.next()).toEqual({
      done: false,
      value: { type: 'text-delta', text: 'Once' },
    });
    const next = stream.next();
    controller.abort(reason);
    await expect(next).rejects.toBe(reason);
    stalled.resolve();
  });

  it('reports route-selected to the observer when iteration starts', async () => {
    const routed = streamingModel([{ type: 'complete', response: finalResponse }]);
    const { model } = setup(routed, () =>
      ChatModelRoutingResult.route('story', { probabilities: { story: 0.9, other: 0.1 } }),
    );
    const observer = jest.fn<(event: RoutingEvent) => void>();
    const stream = model.stream(request, { observer });
    expect(observer).not.toHaveBeenCalled();
    await collect(stream);
    expect(observer).toHaveBeenCalledWith({
      type: 'route-selected',
      route: 'story',
      isDefaultRoute: false,
      sticky: false,
      probabilities: { story: 0.9, other: 0.1 },
      model: 'story',
    });
    expect(routed.stream.mock.calls[0]![1]?.observer).toBe(observer);
  });
});
