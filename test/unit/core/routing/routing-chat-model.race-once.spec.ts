import { describe, expect, it } from '@jest/globals';
import { getEventListeners } from 'node:events';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import { userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';

const request: ChatRequest = { messages: [userMessage('Hello')] };

/** A model that ignores its signal and answers when told. */
function heldModel() {
  let release!: (response: ChatResponse) => void;
  const model: ChatModel = {
    chat: () => new Promise<ChatResponse>((resolve) => (release = resolve)),
  };
  return { model, release: () => release({ aiMessage: { role: 'assistant', text: 'late' } }) };
}

function routingOver(model: ChatModel) {
  return new RoutingChatModel({
    routes: [{ name: 'a', model }],
    router: () => ChatModelRoutingResult.route('a'),
    defaultRoute: 'a',
  });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the caller's signal is raced once per call", () => {
  it('over a group, only the group listens to the caller; an abort still ends the call at once', async () => {
    const held = heldModel();
    const group = new ModelRouter({
      routes: [{ name: 'm', model: held.model }],
      routingStrategy: new FailoverStrategy(),
    });
    const controller = new AbortController();
    const reason = new Error('caller left');

    const call = routingOver(group).chat(request, { signal: controller.signal });
    await settle();
    // the group's race alone: the routing model above adds no second listener
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    held.release();
  });

  it('over a model that may ignore its signal, the routing model races it itself', async () => {
    const held = heldModel();
    const controller = new AbortController();
    const reason = new Error('caller left');

    const call = routingOver(held.model).chat(request, { signal: controller.signal });
    await settle();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    held.release();
  });

  it('a call over a group that ends normally leaves no listener on a long-lived signal', async () => {
    const answer: ChatResponse = { aiMessage: { role: 'assistant', text: 'hi' } };
    const group = new ModelRouter({
      routes: [{ name: 'm', model: { chat: async () => answer } }],
      routingStrategy: new FailoverStrategy(),
    });
    const signal = new AbortController().signal;
    const response = await routingOver(group).chat(request, { signal });
    expect(response.aiMessage.text).toBe('hi');
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  // the group's race covers its strategy's pending work too, which the routing model's race
  // covered before: an abort there still ends the call at once
  it('an abort while the strategy picks a model (it ignores the signal) ends the call at once', async () => {
    const never = new Promise<never>(() => undefined);
    const group = new ModelRouter({
      routes: [{ name: 'm', model: heldModel().model }],
      routingStrategy: { route: () => never },
    });
    const controller = new AbortController();
    const reason = new Error('caller left');
    const call = routingOver(group).chat(request, { signal: controller.signal });
    await settle();
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
  });

  it('an abort while the strategy records the answer ends the call at once', async () => {
    const answer: ChatResponse = { aiMessage: { role: 'assistant', text: 'hi' } };
    const group = new ModelRouter({
      routes: [{ name: 'm', model: { chat: async () => answer } }],
      routingStrategy: {
        route: (models) => models[0],
        onSuccess: () => new Promise<never>(() => undefined),
      },
    });
    const controller = new AbortController();
    const reason = new Error('caller left');
    const call = routingOver(group).chat(request, { signal: controller.signal });
    await settle();
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
  });

  it('a stream over a group: only the group listens to the caller; an abort ends it at once', async () => {
    const member: ChatModel = {
      chat: async () => ({ aiMessage: { role: 'assistant', text: 'x' } }),
      async *stream() {
        yield { type: 'text-delta' as const, text: 'Hel' };
        await new Promise<never>(() => undefined); // the model ignores its signal
      },
    };
    const group = new ModelRouter({
      routes: [{ name: 'm', model: member }],
      routingStrategy: new FailoverStrategy(),
    });
    const controller = new AbortController();
    const reason = new Error('caller left');
    const events = routingOver(group).stream(request, { signal: controller.signal });
    expect(await events.next()).toMatchObject({ value: { type: 'text-delta', text: 'Hel' } });
    const pending = events.next();
    await settle();
    // the group's read alone: the routing model above adds no abortable() of its own
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
