import 'reflect-metadata';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Body, Controller, type INestApplication, Param, Post } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { userMessage } from '../../../src/core/chat/messages.js';
import { RoutingException } from '../../../src/core/errors/exceptions.js';
import { ChatModelRoutingResult } from '../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { LowestTokenUsageRoutingStrategy } from '../../../src/core/strategies/lowest-token-usage-routing-strategy.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { sessionStateKey } from '../../../src/core/group/session-affinity.js';
import { SESSION_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import { SESSION_HEADER } from '../../../src/nest/http/model-routing.interceptor.js';
import { UseRouter } from '../../../src/nest/http/use-router.decorator.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { SwitchableModel } from './support/flaky-model.js';

const COOLDOWN_MS = 60_000;
/** Where the group of route 'simple' of router 'support' keeps a session's pin. */
const pinOf = (session: string) => sessionStateKey('support/simple', session, 'simple');

@Controller()
@UseRouter('support')
class ChatController {
  constructor(private readonly chat: RoutingChatService) {}

  /** The client's x-model-router-session header (if any) is the session. */
  @Post('chat')
  async answer(@Body() body: { text: string }) {
    const response = await this.chat.chat({ messages: [userMessage(body.text)] });
    return { text: response.aiMessage.text };
  }

  /** The server names the session; its option wins over the header. */
  @Post('users/:user/chat')
  async asUser(@Param('user') user: string, @Body() body: { text: string }) {
    const response = await this.chat.chat(
      { messages: [userMessage(body.text)] },
      { session: `user:${user}` },
    );
    return { text: response.aiMessage.text };
  }
}

interface SessionApp {
  app: INestApplication;
  url: string;
  a: SwitchableModel;
  b: SwitchableModel;
  clock: { now: number };
  store: InMemoryRouteStateStore;
}

/**
 * Router 'support' with one route, 'simple': a failover group [a, b] whose delegate balances token
 * usage (every answer costs 10 tokens), so without a session consecutive requests alternate.
 */
async function startApp(adapter: 'express' | 'fastify'): Promise<SessionApp> {
  const clock = { now: Date.UTC(2030, 0, 1, 9, 0, 0) };
  const now = () => clock.now;
  const store = new InMemoryRouteStateStore(now);
  const a = new SwitchableModel('a');
  const b = new SwitchableModel('b');
  const support = new RoutingChatModel({
    routes: [
      {
        name: 'simple',
        model: new ModelRouter({
          routes: [
            { name: 'a', model: a },
            { name: 'b', model: b },
          ],
          routingStrategy: new FailoverStrategy({
            cooldownMs: COOLDOWN_MS,
            delegate: new LowestTokenUsageRoutingStrategy(),
          }),
        }),
      },
    ],
    router: () => ChatModelRoutingResult.defaultRoute(),
    defaultRoute: 'simple',
  });
  const moduleRef = await Test.createTestingModule({
    imports: [ModelRouterModule.forRoot({ routers: { support }, stateStore: store, clock: now })],
    controllers: [ChatController],
  }).compile();
  const app =
    adapter === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
      : moduleRef.createNestApplication({ logger: false });
  await app.init();
  if (adapter === 'fastify') await app.getHttpAdapter().getInstance().ready();
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, url, a, b, clock, store };
}

describe.each(['express', 'fastify'] as const)('session affinity over HTTP under %s', (adapter) => {
  let subject: SessionApp;

  beforeEach(async () => {
    subject = await startApp(adapter);
  });

  afterEach(async () => {
    await subject.app.close();
  });

  /** Sends one chat request (with the session header when given); returns the serving model. */
  async function send(session?: string, path = '/chat'): Promise<string> {
    const call = request(subject.url).post(path).send({ text: 'hi' });
    const response = await (session === undefined ? call : call.set(SESSION_HEADER, session));
    expect(response.status).toBe(201);
    const model = response.headers['x-model-router-model'] as string;
    expect(response.body.text).toBe(`${model}: hi`);
    return model;
  }

  async function sequence(...sessions: (string | undefined)[]): Promise<string[]> {
    const models: string[] = [];
    for (const session of sessions) models.push(await send(session));
    return models;
  }

  it('without the header, requests alternate between the models (token balancing)', async () => {
    await expect(sequence(undefined, undefined, undefined)).resolves.toEqual(['a', 'b', 'a']);
  });

  it('the x-model-router-session header keeps each conversation on its model', async () => {
    await expect(sequence('s1', 's1', undefined, 's2', 's2', 's1', 's2')).resolves.toEqual([
      'a',
      'a', // balancing alone would choose b
      'b',
      'b', // a 20 tokens, b 10: s2 starts on b
      'b',
      'a',
      'b',
    ]);
    expect(subject.a.lastAttributes).toMatchObject({
      [SESSION_ATTRIBUTE]: 's1',
      model_router: 'support',
      chat_model_route: 'simple',
    });
    expect(subject.store.getSticky(pinOf('s1'))).toEqual({ route: 'simple', model: 'a' });
    expect(subject.store.getSticky(pinOf('s2'))).toEqual({ route: 'simple', model: 'b' });
  });

  it('a pinned model whose circuit opens: the session fails over and stays on the model that answered', async () => {
    await expect(sequence('s1')).resolves.toEqual(['a']);
    subject.a.failing = true;
    await expect(sequence('s1')).resolves.toEqual(['b']);
    subject.a.failing = false;
    subject.clock.now += COOLDOWN_MS; // a is back, and has used fewer tokens than b
    await expect(sequence('s1', undefined, 's1')).resolves.toEqual(['b', 'a', 'b']);
    expect(subject.store.getSticky(pinOf('s1'))).toEqual({ route: 'simple', model: 'b' });
  });

  it('a session expires sessionTtlMs (default 30 minutes) after its last answer', async () => {
    await expect(sequence('s1', 's1')).resolves.toEqual(['a', 'a']);
    subject.clock.now += 30 * 60_000;
    expect(subject.store.getSticky(pinOf('s1'))).toBeUndefined();
    await expect(sequence('s1')).resolves.toEqual(['b']);
  });

  it('a blank header means no session; an oversized one is refused with 400 naming the header', async () => {
    await expect(sequence(' ', ' ')).resolves.toEqual(['a', 'b']);
    const response = await request(subject.url)
      .post('/chat')
      .set(SESSION_HEADER, 'x'.repeat(257))
      .send({ text: 'hi' });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(SESSION_HEADER);
    expect(subject.a.calls + subject.b.calls).toBe(2);
  });

  it("the service's session option sets the session, and wins over the header", async () => {
    expect(await send('from-header', '/users/u1/chat')).toBe('a');
    expect(await send('from-header', '/users/u1/chat')).toBe('a');
    expect(subject.store.getSticky(pinOf('user:u1'))).toEqual({ route: 'simple', model: 'a' });
    expect(subject.store.getSticky(pinOf('from-header'))).toBeUndefined();

    const service = subject.app.get(RoutingChatService);
    const ask = { messages: [userMessage('direct')] };
    await expect(service.chat(ask, { session: 'user:u1' })).resolves.toMatchObject({
      aiMessage: { text: 'a: direct' },
    });
    await expect(service.chat(ask, { session: '' })).rejects.toThrow(RoutingException);
    await expect(service.chat(ask, { session: 42 as never })).rejects.toThrow(/session/);
  });
});
