// The README's two-service example ("The router as a microservice"), kept true by running it:
// a router service on TCP and an API service whose controller uses an injected RemoteChatModel.
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Body,
  Controller,
  type INestApplication,
  type INestMicroservice,
  Inject,
  Module,
  Post,
  ValidationPipe,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  type ClientProxy,
  ClientsModule,
  type MicroserviceOptions,
  Transport,
} from '@nestjs/microservices';
import request from 'supertest';
import {
  ChatRequestDto,
  LocalDemoChatModel,
  ModelRouterMicroserviceModule,
  ModelRouterModule,
  RemoteChatModel,
  ROUTE_ATTRIBUTE,
  RoutingChatModel,
  ChatModelRoutingResult,
} from '../../../src/index.js';
import { freeLoopbackPort } from '../../e2e/microservice/support/router-service.js';

const support = new RoutingChatModel({
  routes: [{ name: 'faq', model: new LocalDemoChatModel({ name: 'faq-model' }) }],
  router: () => ChatModelRoutingResult.route('faq'),
  defaultRoute: 'faq',
});
const sales = new LocalDemoChatModel({ name: 'sales-model' });

@Module({
  imports: [
    ModelRouterModule.forRoot({ routers: { support, sales }, defaultRouter: 'support' }),
    ModelRouterMicroserviceModule,
  ],
})
// oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
class RouterServiceModule {}

@Controller('chat')
class ChatController {
  constructor(@Inject(RemoteChatModel) private readonly model: RemoteChatModel) {}

  @Post()
  async chat(@Body(new ValidationPipe({ transform: true })) body: ChatRequestDto) {
    const response = await this.model.chat(body.toChatRequest(), {
      session: 'conversation-42',
      attributes: { tenant: 'acme' },
    });
    return {
      text: response.aiMessage.text,
      route: response.aiMessage.attributes?.[ROUTE_ATTRIBUTE],
    };
  }
}

function apiModule(port: number) {
  @Module({
    imports: [
      ClientsModule.register([
        { name: 'MODEL_ROUTER', transport: Transport.TCP, options: { host: '127.0.0.1', port } },
      ]),
    ],
    controllers: [ChatController],
    providers: [
      {
        provide: RemoteChatModel,
        inject: ['MODEL_ROUTER'],
        useFactory: (client: ClientProxy) =>
          new RemoteChatModel(client, { router: 'support', timeoutMs: 60_000 }),
      },
    ],
  })
  // oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
  class ApiModule {}
  return ApiModule;
}

describe('README: the router as a microservice', () => {
  let routerService: INestMicroservice;
  let api: INestApplication;

  beforeAll(async () => {
    const port = await freeLoopbackPort();
    routerService = await NestFactory.createMicroservice<MicroserviceOptions>(RouterServiceModule, {
      transport: Transport.TCP,
      options: { host: '127.0.0.1', port },
      logger: false,
    });
    await routerService.listen();
    api = await NestFactory.create(apiModule(port), { logger: false });
    await api.init();
  });
  afterAll(async () => {
    await api?.close();
    await routerService?.close();
  });

  it('the API service answers through the router service, naming the route', async () => {
    const response = await request(api.getHttpServer())
      .post('/chat')
      .send({ messages: [{ role: 'user', content: 'How do I reset my password?' }] })
      .expect(201);

    expect(response.body).toEqual({ text: expect.any(String), route: 'faq' });
    expect(response.body.text.length).toBeGreaterThan(0);
  });

  it('a body the DTO refuses never reaches the router service', async () => {
    await request(api.getHttpServer()).post('/chat').send({ messages: [] }).expect(400);
  });
});
