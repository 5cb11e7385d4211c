import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Body,
  Controller,
  type INestApplication,
  Get,
  Post,
  Sse,
  UseInterceptors,
  ValidationPipe,
} from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { Test } from '@nestjs/testing';
import { map, type Observable } from 'rxjs';
import request from 'supertest';
import type { ChatStreamEvent } from '../../../src/core/chat/chat-model.js';
import { userMessageText } from '../../../src/core/chat/messages.js';
import type { DecisionModel } from '../../../src/core/decision/decision-model.js';
import { ChatModelRoutingResult } from '../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { buildModelRouterOptions } from '../../../src/nest/config/build-model-router-options.js';
import { parseModelRouterConfig } from '../../../src/config/load-model-router-config.js';
import { defaultModelRouterFactories } from '../../../src/config/default-model-router-factories.js';
import { ChatRequestDto } from '../../../src/nest/dto/chat-request.dto.js';
import { ModelRouterHealthIndicator } from '../../../src/nest/health/model-router-health.indicator.js';
import { ModelRouterHealthModule } from '../../../src/nest/health/model-router-health.module.js';
import { ModelRoutingInterceptor } from '../../../src/nest/http/model-routing.interceptor.js';
import type { ModelRouterModuleOptions } from '../../../src/nest/module/model-router-module-options.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { LocalDemoChatModel } from '../../../src/providers/local/local-demo-chat-model.js';

/**
 * Issue 23, point 8: a route served by one model alone, declared in `forRoot` with a provider
 * model, names that model as configured (its name under `models`, else the route's) in the
 * `x-model-router-model` header and in `/health`, as the same routes declared in YAML do.
 */
@Controller()
@UseInterceptors(ModelRoutingInterceptor)
class ChatController {
  constructor(
    private readonly chat: RoutingChatService,
    private readonly health: HealthCheckService,
    private readonly indicator: ModelRouterHealthIndicator,
  ) {}

  @Post('chat')
  async answer(@Body() body: ChatRequestDto) {
    const response = await this.chat.chat(body.toChatRequest());
    return { modelName: response.modelName };
  }

  @Post('solo')
  async solo(@Body() body: ChatRequestDto) {
    await this.chat.chat(body.toChatRequest(), { router: 'solo' });
  }

  @Sse('stream')
  stream(): Observable<{ data: ChatStreamEvent }> {
    return this.chat
      .stream({ messages: [{ role: 'user', content: 'design a queue' }] })
      .pipe(map((event) => ({ data: event })));
  }

  @Get('health')
  @HealthCheck()
  check() {
    return this.health.check([() => this.indicator.isHealthy()]);
  }
}

/** Both declarations route alike: "design" → complex, a digit → math, else simple. */
const routeFor = (text: string) =>
  /design/.test(text) ? 'complex' : /\d/.test(text) ? 'math' : 'simple';

/** Provider models whose `modelName` is their provider id, as a real provider's is. */
const provider = (id: string) => new LocalDemoChatModel({ name: id });

function forRootOptions(): ModelRouterModuleOptions {
  const mini = provider('gpt-4o-mini');
  const claude = provider('claude-sonnet-4-6');
  return {
    // `spare` is registered and served by no router: it is called by name
    models: { mini, claude, spare: provider('gpt-4.1-nano') },
    routers: {
      support: new RoutingChatModel({
        routes: [
          {
            name: 'simple',
            model: new ModelRouter({
              routes: [{ name: 'mini', model: mini }],
              routingStrategy: new FailoverStrategy(),
            }),
          },
          { name: 'complex', model: claude },
          // not registered under a name: the route's name is the only configured one
          { name: 'math', model: provider('o4-mini') },
        ],
        router: ({ chatRequest }) => {
          const last = chatRequest.messages.at(-1);
          return ChatModelRoutingResult.route(
            routeFor(last?.role === 'user' ? userMessageText(last) : ''),
          );
        },
        defaultRoute: 'simple',
      }),
      // a router that is one model
      solo: claude,
    },
    defaultRouter: 'support',
  };
}

/** The same models and routes in YAML (`demo` models stand for the providers). */
async function yamlOptions(): Promise<ModelRouterModuleOptions> {
  const config = parseModelRouterConfig(
    [
      'models:',
      '  mini: { type: demo, name: gpt-4o-mini }',
      '  claude: { type: demo, name: claude-sonnet-4-6 }',
      '  math: { type: demo, name: o4-mini }',
      '  spare: { type: demo, name: gpt-4.1-nano }',
      'routers:',
      '  support:',
      '    decision: { type: by-text }',
      '    routes:',
      '      - { name: simple, model: mini }',
      '      - { name: complex, model: claude }',
      '      - { name: math, model: math }',
      '  solo: { model: claude }',
      'defaultRouter: support',
    ].join('\n'),
    { env: {} },
  );
  const byText: DecisionModel = {
    decide: async ({ input }) => ({
      value: routeFor(
        typeof input === 'string' ? input : input.messages.map((message) => message.text).join(' '),
      ),
    }),
  };
  const factories = defaultModelRouterFactories().registerDecisionModelType(
    'by-text',
    () => byText,
  );
  return buildModelRouterOptions(config, { factories });
}

async function start(options: ModelRouterModuleOptions): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [ModelRouterModule.forRoot(options), ModelRouterHealthModule],
    controllers: [ChatController],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  app.useGlobalPipes(new ValidationPipe({ transform: true }));
  await app.init();
  return app;
}

const ask = (text: string) => ({ messages: [{ role: 'user', content: text }] });

describe.each([
  ['forRoot', forRootOptions],
  ['YAML', yamlOptions],
] as const)('a route served by one model, declared through %s', (_how, options) => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await start(await options());
  });
  afterAll(async () => {
    await app?.close();
  });

  it('names the configured model in x-model-router-model, never the provider id', async () => {
    const complex = await request(app.getHttpServer()).post('/chat').send(ask('design a queue'));
    expect(complex.status).toBe(201);
    expect(complex.body.modelName).toBe('claude-sonnet-4-6');
    expect(complex.headers['x-model-router-route']).toBe('complex');
    expect(complex.headers['x-model-router-model']).toBe('claude');

    const math = await request(app.getHttpServer()).post('/chat').send(ask('what is 2 + 2'));
    expect(math.headers['x-model-router-route']).toBe('math');
    expect(math.headers['x-model-router-model']).toBe('math');

    const simple = await request(app.getHttpServer()).post('/chat').send(ask('hi'));
    expect(simple.headers['x-model-router-route']).toBe('simple');
    expect(simple.headers['x-model-router-model']).toBe('mini');
  });

  it('names it in the headers of a stream, sent before its first event', async () => {
    const response = await request(app.getHttpServer()).get('/stream');
    expect(response.headers['x-model-router-route']).toBe('complex');
    expect(response.headers['x-model-router-model']).toBe('claude');
  });

  it('names the model of a router that is one model', async () => {
    const solo = await request(app.getHttpServer()).post('/solo').send(ask('hi'));
    expect(solo.status).toBe(201);
    expect(solo.headers['x-model-router-route']).toBeUndefined();
    expect(solo.headers['x-model-router-model']).toBe('claude');
  });

  it('shows every model of every router in /health, with its route', async () => {
    const health = await request(app.getHttpServer()).get('/health').expect(200);
    const { routers } = health.body.details['model-router'];
    expect(routers.solo).toMatchObject({
      status: 'up',
      models: { claude: { state: 'available', failures: 0 } },
    });
    expect(routers.support.models).toEqual({
      mini: { state: 'available', failures: 0, route: 'simple' },
      claude: { state: 'available', failures: 0, route: 'complex' },
      math: { state: 'available', failures: 0, route: 'math' },
    });
  });

  it('lists a registered model that no router serves under models, available', async () => {
    const health = await request(app.getHttpServer()).get('/health').expect(200);
    expect(health.body.details['model-router'].models).toEqual({
      spare: { state: 'available', failures: 0 },
    });
  });
});
