import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { lastValueFrom } from 'rxjs';
import type { ChatMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import { collectStream } from '../../../../src/core/chat/stream.js';
import { InvalidChatRequestException } from '../../../../src/core/errors/invalid-chat-request.exception.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { ModelRouterModule } from '../../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../../src/nest/service/routing-chat.service.js';

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

  it('a group called directly checks; told the request is checked, it does not', async () => {
    const group = new ModelRouter({
      routes: [{ name: 'a', model: answering }],
      routingStrategy: new FailoverStrategy(),
    });
    const { request, messages } = countedRequest();
    await group.chat(request);
    expect(messages.walks).toBe(1);
    await group.chat(request, { checkedRequest: request });
    expect(messages.walks).toBe(1);
  });

  it('the vouching covers that very object only: another request is checked', async () => {
    const bad = { messages: [{ role: 'robot' }] } as unknown as ChatRequest;
    const other = { messages: [{ role: 'robot' }] } as unknown as ChatRequest;
    await expect(routerOverGroup().chat(other, { checkedRequest: bad })).rejects.toThrow(
      InvalidChatRequestException,
    );
    await expect(
      collectStream(routerOverGroup().stream(other, { checkedRequest: bad })),
    ).rejects.toThrow(InvalidChatRequestException);
  });
});

describe('RoutingChatService checks at its entry, once for the layers below', () => {
  let moduleRef: TestingModule | undefined;
  afterEach(async () => {
    await moduleRef?.close();
    moduleRef = undefined;
  });

  async function service(): Promise<RoutingChatService> {
    moduleRef = await Test.createTestingModule({
      imports: [ModelRouterModule.forRoot({ routers: { main: routerOverGroup() } })],
    }).compile();
    await moduleRef.init();
    return moduleRef.get(RoutingChatService);
  }

  it("a code caller's request: the service checks, the router and the group do not", async () => {
    const chat = await service();
    const { request, messages } = countedRequest();
    await chat.chat(request);
    expect(messages.walks).toBe(1);
    const streamed = countedRequest();
    await lastValueFrom(chat.stream(streamed.request));
    expect(streamed.messages.walks).toBe(1);
  });

  it('a request its caller vouches for (a validated wire body) is not walked at all', async () => {
    const chat = await service();
    const { request, messages } = countedRequest();
    await chat.chat(request, { checkedRequest: request });
    await lastValueFrom(chat.stream(request, { checkedRequest: request }));
    expect(messages.walks).toBe(0);
  });

  it('vouching for another object does not cover this one', async () => {
    const chat = await service();
    const bad = { messages: [{ role: 'robot' }] } as unknown as ChatRequest;
    const { request } = countedRequest();
    await expect(chat.chat(bad, { checkedRequest: request })).rejects.toThrow(
      InvalidChatRequestException,
    );
  });
});
