import 'reflect-metadata';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { Registry } from 'prom-client';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import type { ModelStatus } from '../../../../src/core/inspection/inspection.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { ModelRouterModule } from '../../../../src/nest/module/model-router.module.js';
import { ModelRouterRegistry } from '../../../../src/nest/module/model-router-registry.js';
import { RoutingChatService } from '../../../../src/nest/service/routing-chat.service.js';
import { ModelRouterMetricsModule } from '../../../../src/metrics.js';
import { samples } from './support/metric-values.js';

const COOLDOWN_MS = 30_000;
const ask = { messages: [{ role: 'user' as const, content: 'hello' }] };

/** Answers, or fails with a message holding a key while `failing` is set. */
class SwitchableModel implements ChatModel {
  failing = false;

  constructor(private readonly name: string) {}

  async chat(): Promise<ChatResponse> {
    if (this.failing) throw new Error(`${this.name} is down (api_key=sk-secret-0123456789abcdef)`);
    return { aiMessage: { role: 'assistant', text: this.name }, tokenUsage: { inputTokens: 1 } };
  }
}

/** The gauge as `model -> state` for each series whose value is 1. */
async function states(registry: Registry): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const sample of await samples(registry, 'model_router_model_state')) {
    const { router, route, model, state } = sample.labels;
    expect([0, 1]).toContain(sample.value);
    if (sample.value === 1) result[`${router}/${route}/${model}`] = String(state);
  }
  return result;
}

describe('model_router_model_state, read from the routers on scrape (injected clock)', () => {
  let moduleRef: TestingModule;
  let registry: Registry;
  let clock: { now: number };
  let primary: SwitchableModel;
  let service: RoutingChatService;

  beforeEach(async () => {
    clock = { now: Date.UTC(2030, 0, 1, 9) };
    primary = new SwitchableModel('primary');
    const support = new RoutingChatModel({
      routes: [
        {
          name: 'simple',
          model: new ModelRouter({
            routes: [
              { name: 'primary', model: primary },
              { name: 'backup', model: new SwitchableModel('backup') },
            ],
            routingStrategy: new FailoverStrategy({ cooldownMs: COOLDOWN_MS, halfOpenProbes: 1 }),
          }),
        },
        {
          name: 'complex',
          model: new ModelRouter({
            routes: [{ name: 'deep', model: new SwitchableModel('deep') }],
            routingStrategy: new FailoverStrategy({ cooldownMs: COOLDOWN_MS }),
          }),
        },
      ],
      router: () => ChatModelRoutingResult.route('simple'),
      defaultRoute: 'simple',
    });
    // a plain ChatModel router shows its one model (named after the router), always available
    const plain: ChatModel = { chat: async () => ({ aiMessage: { role: 'assistant', text: '' } }) };
    registry = new Registry();
    moduleRef = await Test.createTestingModule({
      imports: [
        ModelRouterModule.forRoot({
          routers: { support, plain },
          defaultRouter: 'support',
          clock: () => clock.now,
        }),
        ModelRouterMetricsModule.forRoot({ registry }),
      ],
    }).compile();
    await moduleRef.init();
    service = moduleRef.get(RoutingChatService);
  });

  afterEach(async () => {
    await moduleRef.close();
  });

  it('follows a model through available, cooldown, half-open and back to available', async () => {
    expect(await states(registry)).toEqual({
      'support/simple/primary': 'available',
      'support/simple/backup': 'available',
      'support/complex/deep': 'available',
      'plain//plain': 'available',
    });
    // one series per model and state: nothing else
    expect(await samples(registry, 'model_router_model_state')).toHaveLength(12);

    primary.failing = true;
    const failedAt = clock.now;
    await service.chat(ask);
    expect(await states(registry)).toEqual({
      'support/simple/primary': 'cooldown',
      'support/simple/backup': 'available',
      'support/complex/deep': 'available',
      'plain//plain': 'available',
    });

    clock.now = failedAt + COOLDOWN_MS - 1;
    expect((await states(registry))['support/simple/primary']).toBe('cooldown');

    // the cooldown ends on the clock alone: no call is needed to see it
    clock.now = failedAt + COOLDOWN_MS;
    expect((await states(registry))['support/simple/primary']).toBe('half-open');

    // the probe succeeds and closes the circuit
    primary.failing = false;
    await service.chat(ask);
    expect((await states(registry))['support/simple/primary']).toBe('available');
  });

  it('agrees with the routers’ own inspection and shows no error message', async () => {
    primary.failing = true;
    await service.chat(ask);
    const inspected: ModelStatus[] = moduleRef
      .get(ModelRouterRegistry)
      .inspect()
      .find((inspection) => inspection.router === 'support')!.models;
    expect(inspected).toHaveLength(3);
    const gauge = await states(registry);
    for (const status of inspected) {
      expect(gauge[`support/${status.route}/${status.model}`]).toBe(status.state);
    }
    // the health view carries the (scrubbed) message; the metrics carry none of it
    expect(inspected.find((status) => status.model === 'primary')?.lastError?.message).toContain(
      'is down',
    );
    const text = await registry.metrics();
    expect(text).not.toContain('sk-secret');
    expect(text).not.toContain('is down');
  });
});
