import 'reflect-metadata';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import * as prom from 'prom-client';
import { userMessage } from '../../../../src/core/chat/messages.js';
import { DecisionModelChatModelRouter } from '../../../../src/core/decision/decision-model-chat-model-router.js';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { ModelRouterMetricsModule } from '../../../../src/metrics.js';
import { ModelRouterMetrics } from '../../../../src/nest/metrics/model-router-metrics.js';
import { ModelRouterModule } from '../../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../../src/nest/service/routing-chat.service.js';
import { ModelRouterStatusModule } from '../../../../src/nest/status/model-router-status.module.js';
import { ModelRouterStatus } from '../../../../src/nest/status/model-router-status.js';
import { samples, valueOf } from './support/metric-values.js';

const answer = (text: string) => ({
  chat: async () => ({ aiMessage: { role: 'assistant' as const, text } }),
});

const DECISIONS = 'model_router_teacher_decisions_total';
const SHARE = 'model_router_teacher_share';

describe('teacher metrics', () => {
  it("count each router's decisions by who decided, and the share of the last 100", async () => {
    const registry = new prom.Registry();
    const metrics = new ModelRouterMetrics(prom, { registry });
    metrics.bindTeacherStats(() => [
      { router: 'main', decisions: 250, taught: 40, recent: 100, recentTaught: 12 },
      // a nested decision router of the same router adds up under its label
      { router: 'main', decisions: 50, taught: 10, recent: 50, recentTaught: 10 },
      { router: 'fresh', decisions: 0, taught: 0, recent: 0, recentTaught: 0 },
    ]);
    expect(await valueOf(registry, DECISIONS, { router: 'main', by: 'model' })).toBe(250);
    expect(await valueOf(registry, DECISIONS, { router: 'main', by: 'teacher' })).toBe(50);
    expect(await valueOf(registry, SHARE, { router: 'main' })).toBeCloseTo(22 / 150);
    expect(await valueOf(registry, SHARE, { router: 'fresh' })).toBe(0);
    expect(await registry.metrics()).toContain(
      'model_router_teacher_decisions_total{router="main",by="teacher"} 50',
    );
    metrics.unregister();
  });

  it('a report that throws leaves the series empty, not the scrape broken', async () => {
    const registry = new prom.Registry();
    const metrics = new ModelRouterMetrics(prom, { registry });
    metrics.bindTeacherStats(() => {
      throw new Error('router gone');
    });
    expect(await samples(registry, DECISIONS)).toEqual([]);
    expect(await samples(registry, SHARE)).toEqual([]);
    expect(await registry.metrics()).toContain('# TYPE model_router_teacher_share gauge');
    metrics.unregister();
  });
});

describe('a router with a teacher, in the module', () => {
  let moduleRef: TestingModule;
  afterAll(() => moduleRef?.close());

  it('metrics and the status page show how often the teacher was asked', async () => {
    // the first model is always unsure; the teacher is bounded to 20 % of the last 100
    const first = {
      decide: async () => ({ value: 'simple', probabilities: { simple: 0.55, complex: 0.45 } }),
    };
    const teacher = { decide: async () => ({ value: 'complex' }) };
    const smart = new RoutingChatModel({
      routes: [
        { name: 'simple', model: answer('s') },
        { name: 'complex', model: answer('c') },
      ],
      router: new DecisionModelChatModelRouter(first, {
        teacher,
        maxTeacherShare: 0.2,
        logger: { warn: () => undefined },
      }),
      defaultRoute: 'simple',
    });
    const registry = new prom.Registry();
    moduleRef = await Test.createTestingModule({
      imports: [
        ModelRouterModule.forRoot({ routers: { smart } }),
        ModelRouterMetricsModule.forRoot({ registry }),
        ModelRouterStatusModule.forRoot({ path: false, pagePath: false }),
      ],
    }).compile();
    await moduleRef.init();
    const service = moduleRef.get(RoutingChatService);
    for (let n = 0; n < 50; n++) await service.chat({ messages: [userMessage(`q${n}`)] });
    // 20 asked (the budget's 20 of 100), the other 30 left to the first model
    expect(await valueOf(registry, DECISIONS, { router: 'smart', by: 'teacher' })).toBe(20);
    expect(await valueOf(registry, DECISIONS, { router: 'smart', by: 'model' })).toBe(30);
    expect(await valueOf(registry, SHARE, { router: 'smart' })).toBeCloseTo(0.4);
    const learning = moduleRef.get(ModelRouterStatus).report().learning as {
      name: string;
      teacherShare: string;
      teacher: { taught: number; deferred: number };
    }[];
    expect(learning).toEqual([
      expect.objectContaining({
        name: 'smart',
        teacherShare: '40 % of the last 50 decisions (at most 20 %)',
        teacher: expect.objectContaining({ taught: 20, deferred: 30 }),
      }),
    ]);
  });
});
