import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Body, Controller, type INestApplication, Module, Post } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { ModelRouterExceptionFilter } from '../../../src/nest/http/model-router-exception.filter.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { SwitchableModel } from './support/flaky-model.js';

const COOLDOWN_MS = 30_000;

@Controller()
class AskController {
  constructor(private readonly service: RoutingChatService) {}

  @Post('ask')
  async ask(@Body() body: { text: string }): Promise<{ text?: string }> {
    const response = await this.service.chat({ messages: [{ role: 'user', content: body.text }] });
    return { text: response.aiMessage.text };
  }
}

type Registration = 'useGlobalFilters(new …)' | 'APP_FILTER';

/** An app whose only model fails, registering the filter one way or the other. */
async function start(adapter: 'express' | 'fastify', registration: Registration) {
  const model = new SwitchableModel('only');
  model.failing = true;
  const now = 1_000_000;
  const group = new ModelRouter({
    routes: [{ name: 'only', model }],
    routingStrategy: new FailoverStrategy({ cooldownMs: COOLDOWN_MS, clock: () => now }),
  });
  @Module({
    imports: [ModelRouterModule.forRoot({ routers: { main: group }, defaultRouter: 'main' })],
    controllers: [AskController],
    providers:
      registration === 'APP_FILTER'
        ? [{ provide: APP_FILTER, useClass: ModelRouterExceptionFilter }]
        : [],
  })
  // oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
  class AppModule {}
  const app: INestApplication =
    adapter === 'fastify'
      ? await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false })
      : await NestFactory.create(AppModule, { logger: false });
  if (registration !== 'APP_FILTER') app.useGlobalFilters(new ModelRouterExceptionFilter());
  await app.listen(0, '127.0.0.1');
  return { app, model, url: await app.getUrl() };
}

const ask = (url: string) =>
  fetch(`${url}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'hi' }),
  });

describe.each(['express', 'fastify'] as const)('ModelRouterExceptionFilter under %s', (adapter) => {
  let app: INestApplication | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it.each(['useGlobalFilters(new …)', 'APP_FILTER'] as const)(
    'registered with %s: 503 with Retry-After while every model cools down',
    async (registration) => {
      const started = await start(adapter, registration);
      app = started.app;
      // the failure puts the only model in cooldown: the answer says when it is back
      const failed = await ask(started.url);
      expect(failed.status).toBe(503);
      const cooling = await ask(started.url);
      expect(started.model.calls).toBe(1);
      expect(cooling.status).toBe(503);
      expect(cooling.headers.get('retry-after')).toBe(String(COOLDOWN_MS / 1000));
      const body = (await cooling.json()) as { statusCode: number; error: string; message: string };
      expect(body).toMatchObject({ statusCode: 503, error: 'NoMatchingModelFoundException' });
      expect(body.message).not.toContain('sk-secret');
    },
  );
});
