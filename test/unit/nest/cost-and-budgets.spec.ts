import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { Registry } from 'prom-client';
import { userMessage } from '../../../src/core/chat/messages.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { MODEL_PROFILE, type ModelProfile } from '../../../src/core/cost/model-profile.js';
import { BudgetExceededException } from '../../../src/core/errors/budget-exceeded.exception.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { MODEL_ROUTER_COST_EVENTS } from '../../../src/nest/events/cost-events.js';
import { ModelRouterEventPublisher } from '../../../src/nest/events/model-router-event-publisher.js';
import { ModelRouterHealthIndicator } from '../../../src/nest/health/model-router-health.indicator.js';
import { ModelRouterHealthModule } from '../../../src/nest/health/model-router-health.module.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../src/nest/service/routing-chat.service.js';
import { ModelRouterMetricsModule } from '../../../src/metrics.js';
import { valueOf } from './metrics/support/metric-values.js';

const HOUR = 3_600_000;
const answer: ChatResponse = {
  aiMessage: { role: 'assistant', text: 'ok' },
  tokenUsage: { inputTokens: 1000, outputTokens: 1000, totalTokens: 2000 },
};
const open: TestingModule[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

async function start(profiles: Record<string, ModelProfile>) {
  const clock = { now: HOUR * 1000 + 60_000 };
  const registry = new Registry();
  const group = new ModelRouter({
    routes: Object.entries(profiles).map(([name, profile]) => ({
      name,
      model: { chat: async () => answer },
      metadata: [[MODEL_PROFILE, profile]] as [string, unknown][],
    })),
    routingStrategy: new FailoverStrategy(),
  });
  const moduleRef = await Test.createTestingModule({
    imports: [
      ModelRouterModule.forRoot({
        routers: { main: group },
        clock: () => clock.now,
        budgets: [
          { name: 'daily', scope: { router: 'main' }, limitUsd: 0.01, period: '1h', warnAt: 0.5 },
        ],
      }),
      ModelRouterMetricsModule.forRoot({ registry }),
      ModelRouterHealthModule,
    ],
  }).compile();
  open.push(moduleRef);
  await moduleRef.init();
  const events: { name: string; payload: Record<string, unknown> }[] = [];
  moduleRef.get(ModelRouterEventPublisher).useSink({
    emit: (name, payload) => events.push({ name, payload: payload as Record<string, unknown> }),
  });
  return {
    registry,
    events,
    service: moduleRef.get(RoutingChatService),
    health: moduleRef.get(ModelRouterHealthIndicator),
  };
}

const ask = { messages: [userMessage('hi')] };

describe('cost, budgets and skips through the Nest module', () => {
  it('counts cost in model_router_cost_usd_total and emits model cost events', async () => {
    const subject = await start({ priced: { pricing: { input: 1, output: 3 } } });
    await subject.service.chat(ask);
    expect(
      await valueOf(subject.registry, 'model_router_cost_usd_total', {
        router: 'main',
        route: '',
        model: 'priced',
      }),
    ).toBeCloseTo(0.004, 12);
    expect(
      subject.events.find((e) => e.name === MODEL_ROUTER_COST_EVENTS.MODEL_COST)?.payload,
    ).toMatchObject({
      router: 'main',
      model: 'priced',
      costUsd: 0.004,
    });
  });

  it('module budgets: warn once, exceed, then a typed 429 error; health shows spend and the skip', async () => {
    const subject = await start({ priced: { pricing: { input: 1, output: 3 } } });
    for (let i = 0; i < 3; i++) await subject.service.chat(ask);
    const names = subject.events.map((e) => e.name);
    expect(names.filter((n) => n === MODEL_ROUTER_COST_EVENTS.BUDGET_WARNING)).toHaveLength(1);
    expect(names.filter((n) => n === MODEL_ROUTER_COST_EVENTS.BUDGET_EXCEEDED)).toHaveLength(1);
    await expect(subject.service.chat(ask)).rejects.toBeInstanceOf(BudgetExceededException);
    expect(
      subject.events.find((e) => e.name === MODEL_ROUTER_COST_EVENTS.MODEL_SKIPPED)?.payload,
    ).toMatchObject({
      router: 'main',
      model: 'priced',
      reason: 'over-budget',
      budget: 'daily',
    });
    const report = subject.health.report();
    expect(report.budgets).toEqual([
      {
        name: 'daily',
        scope: { router: 'main' },
        period: '1h',
        limitUsd: 0.01,
        spentUsd: 0.012,
        resetsAt: new Date(HOUR * 1001).toISOString(),
        state: 'exceeded',
      },
    ]);
    expect(report.routers.main!.models.priced!.skipped).toEqual({
      reason: 'over-budget',
      until: new Date(HOUR * 1001).toISOString(),
      budget: 'daily',
    });
  });

  it('an unpriced model costs nothing countable: no cost sample, no spend', async () => {
    const subject = await start({ free: {} });
    await subject.service.chat(ask);
    expect(
      await valueOf(subject.registry, 'model_router_cost_usd_total', {
        router: 'main',
        route: '',
        model: 'free',
      }),
    ).toBeUndefined();
    expect(subject.health.report().budgets![0]!.spentUsd).toBe(0);
  });
});
