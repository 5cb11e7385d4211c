import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, type INestApplication, Post, ValidationPipe } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { ChatRequestDto } from '../../../src/nest/dto/chat-request.dto.js';
import { ModelRouterExceptionFilter } from '../../../src/nest/http/model-router-exception.filter.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { SwitchableModel } from './support/flaky-model.js';

@Controller()
class ChatController {
  constructor(private readonly chat: RoutingChatService) {}

  @Post('chat')
  async answer(@Body() body: ChatRequestDto) {
    return { text: (await this.chat.chat(body.toChatRequest())).aiMessage.text };
  }

  /** A server-side bug: its own stack overflow, whatever the body. */
  @Post('bug')
  bug(@Body() body: ChatRequestDto): number {
    const recurse = (n: number): number => recurse(n + 1) + 1;
    return body.messages.length + recurse(0);
  }
}

const nested = (depth: number, leaf: string) => '['.repeat(depth) + leaf + ']'.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe.each(['express', 'fastify'] as const)(
  'ChatRequestDto under Nest’s own ValidationPipe (%s, real HTTP)',
  (adapter) => {
    let app: INestApplication;
    let url: string;

    beforeAll(async () => {
      const moduleRef = await Test.createTestingModule({
        imports: [
          ModelRouterModule.forRoot({ routers: { support: new SwitchableModel('support') } }),
        ],
        controllers: [ChatController],
      }).compile();
      app =
        adapter === 'fastify'
          ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
          : moduleRef.createNestApplication({ logger: false });
      app.useGlobalPipes(new ValidationPipe({ transform: true }));
      app.useGlobalFilters(new ModelRouterExceptionFilter(app.getHttpAdapter()));
      await app.listen(0, '127.0.0.1');
      url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    });

    afterAll(() => app.close());

    const post = async (raw: string, path = 'chat') => {
      const response = await fetch(`${url}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: raw,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    it.each([
      ['messages nested 5000 levels deep', `{"messages":${nested(5000, '')}}`, 'messages.0.0.0'],
      [
        'a tool schema nested 5000 levels deep',
        `{"messages":[{"role":"user","content":"hi"}],"parameters":{"tools":[{"name":"f","parameters":${deepObject(5000)}}]}}`,
        'parameters.tools.0.parameters.a.a',
      ],
      [
        'an unknown field nested 5000 levels deep, before messages',
        `{"extra":${nested(5000, '1')},"messages":[{"role":"user","content":"hi"}]}`,
        'extra.0.0.0',
      ],
    ])('refuses %s with 400, where it was a stack overflow 500', async (_, raw, path) => {
      const { status, body } = await post(raw);

      expect(status).toBe(400);
      expect(body.error).toBe('Bad Request');
      expect(String(body.message)).toContain(`: ${path}`);
      expect(String(body.message)).toContain('is nested more than 64 levels deep');
    });

    it('keeps a stack overflow of the server’s own code a 500', async () => {
      const { status } = await post(
        JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
        'bug',
      );

      expect(status).toBe(500);
    });

    it('still answers an ordinary body', async () => {
      const { status, body } = await post(
        JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
      );

      expect(status).toBe(201);
      expect(body.text).toEqual(expect.any(String));
    });
  },
);
