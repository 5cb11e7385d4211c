import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import { RouteStateStore } from '../../../src/core/state/route-state-store.js';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import { InjectChatModel, InjectRouter } from '../../../src/nest/module/inject.decorators.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { getChatModelToken, getRouterToken } from '../../../src/nest/module/tokens.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { FakeModel, FakeRouter } from './support/fake-routing.js';

const clock = () => 42;

@Injectable()
class Consumer {
  constructor(
    @InjectRouter('support') readonly router: ChatModel,
    @InjectChatModel('small') readonly model: ChatModel,
  ) {}
}

async function compile(imports: unknown[], providers: unknown[] = []) {
  const moduleRef = await Test.createTestingModule({
    imports: imports as never[],
    providers: providers as never[],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

async function startupError(imports: unknown[]): Promise<unknown> {
  try {
    const moduleRef = await compile(imports);
    await moduleRef.close();
  } catch (error) {
    return error;
  }
  throw new Error('expected the module to fail at start-up');
}

describe('ModelRouterModule.forRoot', () => {
  it('provides every router and model under its token and through the inject decorators', async () => {
    const support = new FakeRouter('support');
    const small = new FakeModel('small');
    const moduleRef = await compile(
      [ModelRouterModule.forRoot({ routers: { support }, models: { small } })],
      [Consumer],
    );
    expect(moduleRef.get(getRouterToken('support'))).toBe(support);
    expect(moduleRef.get(getChatModelToken('small'))).toBe(small);
    const consumer = moduleRef.get(Consumer);
    expect(consumer.router).toBe(support);
    expect(consumer.model).toBe(small);
    await moduleRef.close();
  });

  it('provides an in-memory RouteStateStore by default and binds it to each inspectable router', async () => {
    const a = new FakeRouter('a');
    const b = new FakeRouter('b');
    const moduleRef = await compile([ModelRouterModule.forRoot({ routers: { a, b } })]);
    const store = moduleRef.get(RouteStateStore);
    expect(store).toBeInstanceOf(InMemoryRouteStateStore);
    expect(a.bindings).toEqual([{ store, scope: 'a' }]);
    expect(b.bindings).toEqual([{ store, scope: 'b' }]);
    await moduleRef.close();
  });

  it('hands the configured state store and clock to routers', async () => {
    const router = new FakeRouter();
    const stateStore = new InMemoryRouteStateStore();
    const moduleRef = await compile([
      ModelRouterModule.forRoot({ routers: { main: router }, stateStore, clock }),
    ]);
    expect(moduleRef.get(RouteStateStore)).toBe(stateStore);
    expect(router.bindings).toEqual([{ store: stateStore, scope: 'main', clock }]);
    await moduleRef.close();
  });

  it('fails at start-up when defaultRouter names no router', async () => {
    const error = await startupError([
      ModelRouterModule.forRoot({ routers: { a: new FakeRouter() }, defaultRouter: 'missing' }),
    ]);
    expect(error).toBeInstanceOf(InvalidConfigurationException);
    expect((error as Error).message).toContain("defaultRouter: unknown router 'missing'");
    expect((error as Error).message).toContain("known routers: 'a'");
  });

  it('lists every problem of the options at once, each with its path', async () => {
    const error = await startupError([
      ModelRouterModule.forRoot({
        routers: { same: new FakeRouter(), broken: { notChat: true } as unknown as ChatModel },
        models: { same: new FakeModel('same') },
        stateStore: {} as never,
        interceptors: [42 as never],
      }),
    ]);
    const message = (error as Error).message;
    expect(error).toBeInstanceOf(InvalidConfigurationException);
    expect(message).toContain('routers.broken: not a ChatModel');
    expect(message).toContain("routers.same: 'same' is both a router and a model");
    expect(message).toContain('stateStore: not a RouteStateStore (missing getCircuit');
    expect(message).toContain('interceptors[0]: needs an intercept(context, next) method');
  });

  it('requires at least one router', async () => {
    const error = await startupError([ModelRouterModule.forRoot({ routers: {} })]);
    expect((error as Error).message).toContain('routers: at least one router is required');
  });

  it('is global only when asked', async () => {
    @Injectable()
    class NeedsService {
      constructor(readonly service: RoutingChatService) {}
    }
    @Module({ providers: [NeedsService] })
    // oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
    class FeatureModule {}

    const moduleRef = await compile([
      ModelRouterModule.forRoot({ routers: { a: new FakeRouter() }, isGlobal: true }),
      FeatureModule,
    ]);
    expect(moduleRef.get(NeedsService).service).toBeInstanceOf(RoutingChatService);
    await moduleRef.close();

    await expect(
      compile([ModelRouterModule.forRoot({ routers: { a: new FakeRouter() } }), FeatureModule]),
    ).rejects.toThrow(/RoutingChatService/);
  });
});

describe('ModelRouterModule.forRootAsync', () => {
  const SETTINGS = 'SETTINGS';
  @Module({
    providers: [{ provide: SETTINGS, useValue: { routerName: 'support' } }],
    exports: [SETTINGS],
  })
  // oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
  class SettingsModule {}

  it('builds the options with injected dependencies and provides the declared names', async () => {
    const support = new FakeRouter('support');
    const small = new FakeModel('small');
    const moduleRef = await compile(
      [
        ModelRouterModule.forRootAsync({
          imports: [SettingsModule],
          inject: [SETTINGS],
          useFactory: async (settings: { routerName: string }) => ({
            routers: { [settings.routerName]: support },
            models: { small },
            defaultRouter: settings.routerName,
          }),
          routerNames: ['support'],
          modelNames: ['small'],
        }),
      ],
      [Consumer],
    );
    expect(moduleRef.get(Consumer).router).toBe(support);
    expect(support.bindings.map((binding) => binding.scope)).toEqual(['support']);
    const service = moduleRef.get(RoutingChatService);
    const answer = await service.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.aiMessage.text).toBe('simple/model-a');
    await moduleRef.close();
  });

  it('fails at start-up when a declared router name is not returned by the factory', async () => {
    const error = await startupError([
      ModelRouterModule.forRootAsync({
        useFactory: () => ({ routers: { other: new FakeRouter() } }),
        routerNames: ['support'],
      }),
    ]);
    expect(error).toBeInstanceOf(InvalidConfigurationException);
    expect((error as Error).message).toContain(
      "routerNames: 'support' is declared but the options factory returned no routers.support",
    );
  });

  it('fails at start-up when the factory returns nothing', async () => {
    const error = await startupError([
      ModelRouterModule.forRootAsync({ useFactory: () => undefined as never }),
    ]);
    expect(error).toBeInstanceOf(InvalidConfigurationException);
    expect((error as Error).message).toContain('routers');
  });
});
