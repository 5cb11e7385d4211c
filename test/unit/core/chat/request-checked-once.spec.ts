import { describe, expect, it } from '@jest/globals';
import {
  assertChatRequest,
  passChecked,
  streamChecked,
} from '../../../../src/core/chat/assert-chat-request.js';
import type { ChatMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import { collectStream } from '../../../../src/core/chat/stream.js';
import { InvalidChatRequestException } from '../../../../src/core/errors/invalid-chat-request.exception.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';

/** Messages that count how often the shape check walks them (it is the only forEach caller). */
class CountedMessages extends Array<ChatMessage> {
  walks = 0;
  override forEach(...args: Parameters<Array<ChatMessage>['forEach']>): void {
    this.walks++;
    super.forEach(...args);
  }
}

function countedRequest(): { request: ChatRequest; messages: CountedMessages } {
  const messages = new CountedMessages();
  messages.push({ role: 'user', content: 'hello' });
  return { request: { messages }, messages };
}

const answering = {
  chat: async () => ({ aiMessage: { role: 'assistant' as const, text: 'hi' } }),
};

function routerOverGroup(): RoutingChatModel {
  return new RoutingChatModel({
    routes: [
      {
        name: 'only',
        model: new ModelRouter({
          routes: [{ name: 'a', model: answering }],
          routingStrategy: new FailoverStrategy(),
        }),
      },
    ],
    router: () => ChatModelRoutingResult.route('only'),
    defaultRoute: 'only',
  });
}

describe("a call's request shape is checked once, at its entry", () => {
  it('chat: RoutingChatModel checks, the ModelRouter it hands the request to does not', async () => {
    const { request, messages } = countedRequest();
    await routerOverGroup().chat(request);
    expect(messages.walks).toBe(1);
  });

  it('stream: the same, although each layer checks only when iteration starts', async () => {
    const { request, messages } = countedRequest();
    await collectStream(routerOverGroup().stream(request));
    expect(messages.walks).toBe(1);
  });

  it('a second call with the same request is checked again', async () => {
    const { request, messages } = countedRequest();
    const router = routerOverGroup();
    await router.chat(request);
    await router.chat(request);
    expect(messages.walks).toBe(2);
  });

  it('the hand-off covers one check of that request only, never another request', () => {
    const bad = { messages: [{ role: 'robot' }] } as unknown as ChatRequest;
    const other = { messages: [{ role: 'robot' }] } as unknown as ChatRequest;
    passChecked(bad, () => {
      expect(() => assertChatRequest(other)).toThrow(InvalidChatRequestException);
      assertChatRequest(bad); // handed off: not checked again
      expect(() => assertChatRequest(bad)).toThrow(InvalidChatRequestException);
    });
    expect(() => assertChatRequest(bad)).toThrow(InvalidChatRequestException);
  });

  it('a checked stream hands off on its first step only', async () => {
    const bad = { messages: [{ role: 'robot' }] } as unknown as ChatRequest;
    const checks: string[] = [];
    async function* layer() {
      assertChatRequest(bad);
      checks.push('first step skipped the check');
      yield 1;
      try {
        assertChatRequest(bad);
      } catch {
        checks.push('a later check ran');
      }
      yield 2;
    }
    const values: number[] = [];
    for await (const value of streamChecked(bad, layer())) values.push(value);
    expect(values).toEqual([1, 2]);
    expect(checks).toEqual(['first step skipped the check', 'a later check ran']);
  });
});
