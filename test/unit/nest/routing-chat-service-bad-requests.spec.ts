import 'reflect-metadata';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { lastValueFrom } from 'rxjs';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import type { ArgumentsHost, HttpServer } from '@nestjs/common';
import { RoutingException } from '../../../src/core/errors/exceptions.js';
import { InvalidChatRequestException } from '../../../src/core/errors/invalid-chat-request.exception.js';
import { ModelRouterExceptionFilter } from '../../../src/nest/http/model-router-exception.filter.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';

let moduleRef: TestingModule | undefined;

afterEach(async () => {
  await moduleRef?.close();
  moduleRef = undefined;
});

/** A provider-like model that reads every message, as real ones do. */
function readingModel() {
  return {
    chat: jest.fn(async (request: ChatRequest): Promise<ChatResponse> => ({
      aiMessage: { role: 'assistant', text: request.messages.map((m) => m.role).join(',') },
    })),
  } satisfies ChatModel;
}

async function service(model: ChatModel): Promise<RoutingChatService> {
  moduleRef = await Test.createTestingModule({
    imports: [ModelRouterModule.forRoot({ routers: { main: model }, models: { direct: model } })],
  }).compile();
  await moduleRef.init();
  return moduleRef.get(RoutingChatService);
}

const bad: [string, unknown][] = [
  ['no request', undefined],
  ['no messages', {}],
  ['messages that are a string', { messages: 'hello' }],
  ['a null message', { messages: [null] }],
  ['a user message whose content is a number', { messages: [{ role: 'user', content: 42 }] }],
];

describe('RoutingChatService with malformed requests', () => {
  it.each(bad)(
    'rejects %s with a RoutingException before any interceptor or model runs',
    async (_, request) => {
      const model = readingModel();
      const chat = await service(model);

      for (const options of [{ router: 'main' }, { model: 'direct' }]) {
        await expect(chat.chat(request as ChatRequest, options)).rejects.toThrow(RoutingException);
        await expect(lastValueFrom(chat.stream(request as ChatRequest, options))).rejects.toThrow(
          RoutingException,
        );
      }
      expect(model.chat).not.toHaveBeenCalled();
    },
  );

  it('names the field of a malformed message', async () => {
    const chat = await service(readingModel());

    await expect(
      chat.chat({ messages: [{ role: 'user', content: 'hi' }, null] } as unknown as ChatRequest, {
        model: 'direct',
      }),
    ).rejects.toThrow('messages[1] must be a message object');
  });

  it('rejects with the abort reason when the signal is already aborted', async () => {
    const model = readingModel();
    const chat = await service(model);
    const reason = new Error('caller gave up');

    await expect(
      chat.chat(
        { messages: [{ role: 'user', content: 'hi' }] },
        { signal: AbortSignal.abort(reason) },
      ),
    ).rejects.toBe(reason);
    expect(model.chat).not.toHaveBeenCalled();
  });
});

describe('ModelRouterExceptionFilter and a malformed request', () => {
  it('answers 400 with the message, not 500', () => {
    const sent: { body?: unknown; status?: number } = {};
    const adapter = {
      isHeadersSent: () => false,
      reply: (_res: unknown, body: unknown, status: number) =>
        Object.assign(sent, { body, status }),
      setHeader: () => undefined,
      end: () => undefined,
    } as unknown as HttpServer;
    const response = {};
    const host = {
      getType: () => 'http',
      getArgByIndex: (index: number) => (index === 1 ? response : undefined),
      switchToHttp: () => ({ getResponse: () => response }),
    } as unknown as ArgumentsHost;

    new ModelRouterExceptionFilter(adapter).catch(
      new InvalidChatRequestException('Invalid chat request: messages[0] must be a message object'),
      host,
    );

    expect(sent.status).toBe(400);
    expect(sent.body).toMatchObject({
      statusCode: 400,
      error: 'InvalidChatRequestException',
      message: 'Invalid chat request: messages[0] must be a message object',
    });
  });
});
