import { describe, expect, it, jest } from '@jest/globals';
import { Capability } from '../../../../src/core/chat/capability.js';
import {
  aiMessage,
  toolResultMessage,
  userMessage,
  type ChatMessage,
} from '../../../../src/core/chat/messages.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';
import type { ChatModelRouterFunction } from '../../../../src/core/routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { fakeModel, withCapabilities } from './fakes.js';

const toolCall = { id: 'call-1', name: 'weather', arguments: '{"city":"Oslo"}' };

function setup() {
  const router = jest.fn<ChatModelRouterFunction>(() => ChatModelRoutingResult.route('simple'));
  const simple = withCapabilities(fakeModel('simple'), [Capability.RESPONSE_FORMAT_JSON_SCHEMA]);
  const complex = fakeModel('complex');
  const model = new RoutingChatModel({
    routes: [
      { name: 'simple', model: simple },
      { name: 'complex', model: complex },
    ],
    router,
    defaultRoute: 'simple',
  });
  return { model, router, simple, complex };
}

function loop(routeAttribute: unknown, extra: ChatMessage[] = []): ChatMessage[] {
  const attributes =
    routeAttribute === undefined ? undefined : { chat_model_route: routeAttribute as string };
  return [
    userMessage('Weather in Oslo?'),
    aiMessage({ toolCalls: [toolCall], ...(attributes ? { attributes } : {}) }),
    ...extra,
    toolResultMessage('call-1', '12°C', 'weather'),
  ];
}

describe('2.2.7 tool loop stickiness', () => {
  it('a tool result goes to the route named on the nearest AI message, without the router', async () => {
    const { model, router, simple, complex } = setup();
    const observer = jest.fn<(event: RoutingEvent) => void>();
    const response = await model.chat({ messages: loop('complex') }, { observer });

    expect(router).not.toHaveBeenCalled();
    expect(complex.chat).toHaveBeenCalledTimes(1);
    expect(simple.chat).not.toHaveBeenCalled();
    expect(complex.chat.mock.calls[0]![1]).toStrictEqual({
      attributes: { chat_model_route: 'complex' },
      observer,
    });
    expect(response.aiMessage.attributes?.chat_model_route).toBe('complex');
    expect(observer).toHaveBeenCalledWith({
      type: 'route-selected',
      route: 'complex',
      isDefaultRoute: false,
      sticky: true,
      model: 'complex',
    });
  });

  it('survives JSON.parse(JSON.stringify(messages)) across a whole loop', async () => {
    const { model, router, complex } = setup();
    router.mockImplementation(() => ChatModelRoutingResult.route('complex'));
    complex.chat.mockResolvedValueOnce({
      aiMessage: { role: 'assistant', toolCalls: [toolCall] },
      finishReason: 'tool_calls',
    });
    const first = await model.chat({ messages: [userMessage('Weather in Oslo?')] });
    expect(router).toHaveBeenCalledTimes(1);

    const history: ChatMessage[] = JSON.parse(
      JSON.stringify([
        userMessage('Weather in Oslo?'),
        first.aiMessage,
        toolResultMessage('call-1', '12°C', 'weather'),
      ]),
    );
    router.mockImplementation(() => ChatModelRoutingResult.route('simple'));
    const second = await model.chat({ messages: history });

    expect(router).toHaveBeenCalledTimes(1);
    expect(complex.chat).toHaveBeenCalledTimes(2);
    expect(second.aiMessage.attributes?.chat_model_route).toBe('complex');
  });

  it('several tool results after the AI message still stick to its route', async () => {
    const { model, router, complex } = setup();
    const messages = loop('complex', [toolResultMessage('call-0', 'first result')]);
    await model.chat({ messages });
    expect(router).not.toHaveBeenCalled();
    expect(complex.chat).toHaveBeenCalledTimes(1);
  });

  it('sticks without capability filtering', async () => {
    const { model, router, complex } = setup();
    const parameters = {
      responseFormat: { type: 'json' as const, jsonSchema: { name: 'x', schema: {} } },
    };
    await model.chat({ messages: loop('complex'), parameters });
    expect(router).not.toHaveBeenCalled();
    expect(complex.chat).toHaveBeenCalledTimes(1);
  });

  it('a missing, non-string or unknown route attribute asks the router', async () => {
    for (const attribute of [undefined, 42, null, { name: 'complex' }, 'medium']) {
      const { model, router, simple, complex } = setup();
      await model.chat({ messages: loop(attribute) });
      expect(router).toHaveBeenCalledTimes(1);
      expect(simple.chat).toHaveBeenCalledTimes(1);
      expect(complex.chat).not.toHaveBeenCalled();
    }
  });

  it('earlier AI messages are not consulted', async () => {
    const { model, router, simple, complex } = setup();
    const messages: ChatMessage[] = [
      userMessage('First question'),
      aiMessage({ text: 'Answer', attributes: { chat_model_route: 'complex' } }),
      userMessage('Weather?'),
      aiMessage({ toolCalls: [toolCall] }),
      toolResultMessage('call-1', '12°C'),
    ];
    await model.chat({ messages });
    expect(router).toHaveBeenCalledTimes(1);
    expect(simple.chat).toHaveBeenCalledTimes(1);
    expect(complex.chat).not.toHaveBeenCalled();
  });

  it('only a trailing tool result makes a loop: a user turn asks the router', async () => {
    const { model, router, simple } = setup();
    const messages: ChatMessage[] = [
      userMessage('Hi'),
      aiMessage({ text: 'Hello', attributes: { chat_model_route: 'complex' } }),
      userMessage('And now?'),
    ];
    await model.chat({ messages });
    expect(router).toHaveBeenCalledTimes(1);
    expect(simple.chat).toHaveBeenCalledTimes(1);
  });

  it('a tool result with no AI message before it asks the router', async () => {
    const { model, router } = setup();
    await model.chat({ messages: [toolResultMessage('call-1', 'orphan')] });
    expect(router).toHaveBeenCalledTimes(1);
  });
});
