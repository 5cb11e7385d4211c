import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Body, Controller, Get, type INestApplication, Post, ValidationPipe } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { buildModelRouterOptions } from '../../../src/nest/config/build-model-router-options.js';
import { InvalidModelRouterConfigException } from '../../../src/config/invalid-model-router-config.exception.js';
import type { ModelRouterConfig } from '../../../src/config/model-router-config.js';
import { readModelRouterConfigNames } from '../../../src/config/model-router-config-names.js';
import {
  createModelRouterConfig,
  MODEL_ROUTER_CONFIG_NAMESPACE,
} from '../../../src/nest/config/model-router-config.factory.js';
import { ChatRequestDto } from '../../../src/nest/dto/chat-request.dto.js';
import { ModelRouterHealthIndicator } from '../../../src/nest/health/model-router-health.indicator.js';
import { ModelRouterHealthModule } from '../../../src/nest/health/model-router-health.module.js';
import { UseRouter } from '../../../src/nest/http/use-router.decorator.js';
import { InjectRouter } from '../../../src/nest/module/inject.decorators.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { FIXTURES, testFactories } from '../../unit/config/test-factories.js';

@Controller()
class GatewayController {
  constructor(
    private readonly chat: RoutingChatService,
    private readonly health: HealthCheckService,
    private readonly indicator: ModelRouterHealthIndicator,
    @InjectRouter('support') readonly support: ChatModel,
  ) {}

  @Post('chat')
  async answer(@Body() body: ChatRequestDto) {
    const response = await this.chat.chat(
      body.toChatRequest(),
      body.router ? { router: body.router } : {},
    );
    return { text: response.aiMessage.text };
  }

  @Post('balanced')
  @UseRouter('balanced')
  async balanced(@Body() body: ChatRequestDto) {
    return { text: (await this.chat.chat(body.toChatRequest())).aiMessage.text };
  }

  @Get('health')
  @HealthCheck()
  check() {
    return this.health.check([() => this.indicator.isHealthy()]);
  }
}

/** The app a user writes: ConfigModule loads the YAML, forRootAsync builds the options. */
async function startApp(file: string, env: Record<string, string> = {}) {
  const { factories } = testFactories();
  const moduleRef = await Test.createTestingModule({
    imports: [
      ConfigModule.forRoot({
        isGlobal: true,
        ignoreEnvFile: true,
        load: [createModelRouterConfig(`${FIXTURES}/${file}`, { env })],
      }),
      ModelRouterModule.forRootAsync({
        inject: [ConfigService],
        useFactory: (config: ConfigService) =>
          buildModelRouterOptions(
            config.getOrThrow<ModelRouterConfig>(MODEL_ROUTER_CONFIG_NAMESPACE),
            { factories },
          ),
        ...readModelRouterConfigNames(`${FIXTURES}/${file}`),
        isGlobal: true,
      }),
      ModelRouterHealthModule,
    ],
    controllers: [GatewayController],
  }).compile();
  const app = moduleRef.createNestApplication(new FastifyAdapter(), { logger: false });
  app.useGlobalPipes(new ValidationPipe({ transform: true }));
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  await app.listen(0, '127.0.0.1');
  return { app, url: await app.getUrl() };
}

describe('an app configured from YAML with @nestjs/config (Fastify, real HTTP)', () => {
  let app: INestApplication | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('routes requests with the routers, groups and decision model of the file', async () => {
    const started = await startApp('valid.yaml');
    app = started.app;

    const simple = await request(started.url)
      .post('/chat')
      .send({ messages: [{ role: 'user', content: 'hi' }] });
    expect(simple.status).toBe(201);
    expect(simple.body.text).toBe('quick-a: hi');

    const complex = await request(started.url)
      .post('/chat')
      .send({ messages: [{ role: 'user', content: 'design a cache' }] })
      .expect(201);
    expect(complex.body.text).toBe('deep: design a cache');

    const balanced = await Promise.all(
      [1, 2].map(() =>
        request(started.url)
          .post('/balanced')
          .send({ messages: [{ role: 'user', content: 'x' }] }),
      ),
    );
    expect(balanced.map((response) => response.body.text).toSorted()).toEqual([
      'quick-a: x',
      'quick-b: x',
    ]);

    expect(app.get(GatewayController).support).toBeInstanceOf(RoutingChatModel);

    const health = await request(started.url).get('/health').expect(200);
    expect(Object.keys(health.body.details['model-router'].routers.support.models)).toEqual([
      'quick-a',
      'quick-b',
      'deep',
    ]);
    expect(health.body.details['model-router'].stateStore).toEqual({
      status: 'up',
      shared: false,
      type: 'in-memory',
    });
  });

  it('does not start with an invalid file, listing every problem', async () => {
    const error = await startApp('invalid.yaml').then(
      (started) => {
        app = started.app;
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidModelRouterConfigException);
    expect((error as Error).message).toContain(
      "routers.default.routes[1].model: unknown model 'gpt-5'",
    );
    expect((error as InvalidModelRouterConfigException).problems).toHaveLength(14);
  });
});

describe('readModelRouterConfigNames', () => {
  it('reads the names a forRootAsync registration provides under their own tokens', () => {
    expect(readModelRouterConfigNames(`${FIXTURES}/valid.yaml`)).toEqual({
      routerNames: ['support', 'balanced'],
      modelNames: ['quick-a', 'quick-b', 'deep', 'hosted'],
    });
    expect(readModelRouterConfigNames(`${FIXTURES}/missing.yaml`)).toEqual({
      routerNames: [],
      modelNames: [],
    });
  });
});
