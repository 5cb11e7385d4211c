import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { ResilientChatModel } from '../../../src/core/resilience/resilient-chat-model.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { LocalDemoChatModel } from '../../../src/providers/local/local-demo-chat-model.js';
import { buildModelRouterOptions } from '../../../src/nest/config/build-model-router-options.js';
import { InvalidModelRouterConfigException } from '../../../src/config/invalid-model-router-config.exception.js';
import {
  loadModelRouterConfig,
  parseModelRouterConfig,
} from '../../../src/config/load-model-router-config.js';
import { ModelRouterHealthIndicator } from '../../../src/nest/health/model-router-health.indicator.js';
import { ModelRouterHealthModule } from '../../../src/nest/health/model-router-health.module.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { FIXTURES, testFactories } from '../config/test-factories.js';

const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: text }] });

let moduleRef: TestingModule | undefined;

afterEach(async () => {
  await moduleRef?.close();
  moduleRef = undefined;
});

async function problemsOf(build: () => Promise<unknown>): Promise<readonly string[]> {
  const error = await build().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidModelRouterConfigException);
  return (error as InvalidModelRouterConfigException).problems;
}

describe('buildModelRouterOptions', () => {
  it('builds models, routers, the default router and the state store from the valid fixture', async () => {
    const { factories } = testFactories();
    const config = loadModelRouterConfig(`${FIXTURES}/valid.yaml`, { env: {} });
    const options = await buildModelRouterOptions(config, { factories });

    expect(Object.keys(options.models ?? {})).toEqual(['quick-a', 'quick-b', 'deep', 'hosted']);
    expect(options.routers.support).toBeInstanceOf(RoutingChatModel);
    expect(
      (options.routers.support as RoutingChatModel).routes().map((route) => route.name),
    ).toEqual(['simple', 'complex']);
    expect(options.routers.balanced).toBeInstanceOf(ModelRouter);
    expect(options.defaultRouter).toBe('support');
    expect(options.stateStore).toBeInstanceOf(InMemoryRouteStateStore);
    expect(options.closeStateStoreOnShutdown).toBe(true);
    // `resilience: false` leaves the provider model bare; it inherited the provider's endpoint
    expect(options.models?.hosted).toBeInstanceOf(OpenAiCompatibleChatModel);
    const hosted = options.models?.hosted as unknown as {
      client: { baseURL: string };
      model: string;
    };
    expect(hosted.client.baseURL).toBe('http://127.0.0.1:9/v1');
    expect(hosted.model).toBe('gpt-4o-mini');
  });

  it('serves requests through the module: decision routing, failover and health', async () => {
    const { factories, built } = testFactories();
    let now = Date.UTC(2030, 0, 1);
    const clock = () => now;
    const config = loadModelRouterConfig(`${FIXTURES}/valid.yaml`, {
      env: { TEST_COOLDOWN_MS: '1000' },
    });
    moduleRef = await Test.createTestingModule({
      imports: [
        ModelRouterModule.forRootAsync({
          useFactory: () => buildModelRouterOptions(config, { factories, clock }),
          isGlobal: true,
        }),
        ModelRouterHealthModule,
      ],
    }).compile();
    await moduleRef.init();
    const chat = moduleRef.get(RoutingChatService);

    expect((await chat.chat(ask('hello'))).aiMessage.text).toBe('quick-a: hello');
    expect((await chat.chat(ask('a design question'))).aiMessage.text).toBe(
      'deep: a design question',
    );

    built.get('quick-a')!.failing = true;
    expect((await chat.chat(ask('hello'))).aiMessage.text).toBe('quick-b: hello');
    const health = await moduleRef.get(ModelRouterHealthIndicator).isHealthy();
    expect(health['model-router'].status).toBe('degraded');
    expect(health['model-router'].routers.support.models['quick-a']).toMatchObject({
      state: 'cooldown',
      route: 'simple',
      cooldownUntil: new Date(now + 1000).toISOString(),
      lastError: { name: 'Error', message: 'quick-a is down' },
    });

    built.get('quick-a')!.failing = false;
    now += 1000;
    expect((await chat.chat(ask('hello'))).aiMessage.text).toBe('quick-a: hello');
    expect(
      (await moduleRef.get(ModelRouterHealthIndicator).isHealthy())['model-router'].status,
    ).toBe('up');
  });

  it('balances a lowest-token-usage group', async () => {
    const { factories } = testFactories();
    const config = loadModelRouterConfig(`${FIXTURES}/valid.yaml`, { env: {} });
    moduleRef = await Test.createTestingModule({
      imports: [ModelRouterModule.forRoot(await buildModelRouterOptions(config, { factories }))],
    }).compile();
    await moduleRef.init();
    const chat = moduleRef.get(RoutingChatService);
    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push((await chat.chat(ask('x'), { router: 'balanced' })).aiMessage.text);
    }
    expect(answers).toEqual(['quick-a: x', 'quick-b: x', 'quick-a: x', 'quick-b: x']);
  });

  it('wraps provider models in the default resilience unless told otherwise, and builds demo models', async () => {
    const config = parseModelRouterConfig({
      models: {
        resilient: { type: 'openai', model: 'gpt-4o', apiKey: 'sk-test-000000000000' },
        tuned: {
          type: 'openai',
          model: 'gpt-4o',
          apiKey: 'sk-test-000000000000',
          resilience: { retry: { maxAttempts: 2 } },
        },
        local: { type: 'demo', style: 'thorough' },
      },
      routers: { main: { models: ['resilient', 'tuned', 'local'] } },
    });
    const options = await buildModelRouterOptions(config);
    const models = options.models!;
    expect(models.resilient).toBeInstanceOf(ResilientChatModel);
    expect((models.resilient as ResilientChatModel).model).toBeInstanceOf(
      OpenAiCompatibleChatModel,
    );
    expect((models.resilient as ResilientChatModel).policy.maxAttempts).toBe(3);
    expect((models.tuned as ResilientChatModel).policy.maxAttempts).toBe(2);
    expect(models.local).toBeInstanceOf(LocalDemoChatModel);
    expect((models.local as LocalDemoChatModel).name).toBe('local');
    expect(options.stateStore).toBeUndefined();
  });

  it('lists every problem found while building, by path, without secrets', async () => {
    const { factories } = testFactories();
    factories.registerModelType('exploding', () => {
      throw new Error(
        'cannot reach https://user:hunter2@proxy.local with key sk-live-abcdefghijkl',
      );
    });
    const config = parseModelRouterConfig({
      models: {
        good: { type: 'echo' },
        mystery: { type: 'quantum' },
        typo: { type: 'openai', model: 'gpt-4o', apiKey: 'sk-x-000000000000', temprature: 1 },
        boom: { type: 'exploding' },
      },
      routers: {
        judged: {
          decision: { type: 'llm', model: 'ghost' },
          routes: [{ name: 'only', model: 'good' }],
        },
        oracle: { decision: { type: 'oracle' }, routes: [{ name: 'only', model: 'good' }] },
        strange: {
          decision: { type: 'embedded', colour: 'blue' },
          routes: [{ name: 'a', model: 'good' }],
        },
      },
    });
    const problems = await problemsOf(() => buildModelRouterOptions(config, { factories }));
    expect(problems).toEqual([
      expect.stringMatching(
        /^models\.mystery\.type: unknown model type 'quantum'; registered types: openai, anthropic, demo, echo/,
      ),
      expect.stringMatching(
        /^models\.typo\.temprature: unknown setting of an openai model; known: model, /,
      ),
      'models.boom: cannot reach https://***@proxy.local with key sk-***',
      "routers.judged.decision.model: unknown model 'ghost'; known models: 'good'",
      expect.stringMatching(
        /^routers\.oracle\.decision\.type: unknown decision model type 'oracle'; registered types: embedded, llm, embedding, keyword/,
      ),
      expect.stringMatching(
        /^routers\.strange\.decision\.colour: unknown setting of an 'embedded' decision model/,
      ),
    ]);
  });

  it('uses an LLM judge over a configured model', async () => {
    const { factories } = testFactories();
    const config = parseModelRouterConfig({
      models: { judge: { type: 'echo' }, worker: { type: 'echo' } },
      routers: {
        main: {
          decision: { type: 'llm', model: 'judge', maxOutputTokens: 4 },
          routes: [
            { name: 'a', description: 'first', model: 'worker' },
            { name: 'b', description: 'second', model: 'worker' },
          ],
        },
      },
    });
    const options = await buildModelRouterOptions(config, { factories });
    expect(options.routers.main).toBeInstanceOf(RoutingChatModel);
  });
});
