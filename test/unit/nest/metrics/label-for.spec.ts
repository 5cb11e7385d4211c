import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { Registry } from 'prom-client';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { ModelRouterModule } from '../../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../../src/nest/service/routing-chat.service.js';
import {
  ModelRouterMetricsModule,
  type ModelRouterMetricsOptions,
} from '../../../../src/metrics.js';
import { samples, valueOf } from './support/metric-values.js';
import { ScriptedRouter } from './support/scripted-router.js';

const ask = { messages: [{ role: 'user' as const, content: 'hello' }] };

class FailingModel implements ChatModel {
  async chat(): Promise<ChatResponse> {
    throw Object.assign(new Error('503 from upstream'), { status: 503 });
  }
}

class AnsweringModel implements ChatModel {
  async chat(): Promise<ChatResponse> {
    return { aiMessage: { role: 'assistant', text: 'ok' } };
  }
}

const open: TestingModule[] = [];

afterEach(async () => {
  for (const moduleRef of open.splice(0)) await moduleRef.close();
});

/** `tenant-<n>/…` names are folded into `tenant/*`; everything else is kept. */
const foldTenants: ModelRouterMetricsOptions['labelFor'] = (name) =>
  name.startsWith('tenant-') ? 'tenant/*' : name;

async function start(labelFor: ModelRouterMetricsOptions['labelFor']) {
  const registry = new Registry();
  const clock = { now: Date.UTC(2030, 0, 1) };
  const router = new ScriptedRouter(clock);
  const group = new ModelRouter({
    routes: [
      { name: 'tenant-1/gpt-x', model: new FailingModel() },
      { name: 'backup', model: new AnsweringModel() },
    ],
    routingStrategy: new FailoverStrategy({ cooldownMs: 1000 }),
  });
  const moduleRef = await Test.createTestingModule({
    imports: [
      ModelRouterModule.forRoot({
        routers: { main: router, group },
        defaultRouter: 'main',
        models: { 'tenant-7/model': router },
        clock: () => clock.now,
      }),
      ModelRouterMetricsModule.forRoot({ registry, labelFor }),
    ],
  }).compile();
  open.push(moduleRef);
  await moduleRef.init();
  return { registry, router, service: moduleRef.get(RoutingChatService) };
}

describe('ModelRouterMetricsModule labelFor', () => {
  it('maps the model of a call, and the router, route and model of its events', async () => {
    const seen: string[] = [];
    const { registry, router, service } = await start((name, label) => {
      seen.push(`${label}:${name}`);
      return foldTenants!(name, label);
    });
    router.scripts = [{ route: 'simple', model: 'tenant-42/answering' }, {}];
    await service.chat(ask);
    await service.chat(ask, { model: 'tenant-7/model' });
    await service.chat(ask, { router: 'group' });

    expect(
      await valueOf(registry, 'model_router_requests_total', {
        router: 'main',
        route: 'simple',
        model: 'tenant/*',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(
      await valueOf(registry, 'model_router_requests_total', {
        router: '',
        route: '',
        model: 'tenant/*',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(
      await valueOf(registry, 'model_router_model_failures_total', {
        router: 'group',
        route: '',
        model: 'tenant/*',
        kind: 'transient',
      }),
    ).toBe(1);
    // the state gauge (read on scrape) goes through it as well
    const states = (await samples(registry, 'model_router_model_state')).map(
      (sample) => sample.labels.model,
    );
    expect(states).toContain('tenant/*');
    expect(states).not.toContain('tenant-1/gpt-x');
    expect(seen).toEqual(expect.arrayContaining(['router:main', 'route:simple', 'model:backup']));
    // never asked about a missing name: those stay ''
    expect(seen.some((entry) => entry.endsWith(':'))).toBe(false);
  });

  it('still scrubs what it returns; a non-string result becomes an empty label', async () => {
    const { registry, router, service } = await start((name) =>
      name === 'leaky' ? 'https://user:sk-secret-0123456789abcdef@proxy/x' : (7 as never),
    );
    router.scripts = [{ route: 'simple', model: 'leaky' }];
    await service.chat(ask);
    const text = await registry.metrics();
    expect(text).not.toContain('sk-secret');
    expect(
      await valueOf(registry, 'model_router_requests_total', {
        router: '',
        route: '',
        model: 'https://***@proxy/x',
        outcome: 'ok',
      }),
    ).toBe(1);
  });

  it('rejects a labelFor that is not a function, naming the field', async () => {
    await expect(start('tenant/*' as never)).rejects.toThrow(InvalidConfigurationException);
    await expect(start('tenant/*' as never)).rejects.toThrow(/labelFor: must be a function/);
  });
});
