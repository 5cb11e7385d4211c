import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import { Registry } from 'prom-client';
import { BUDGET_DIMENSIONS } from '../../../src/core/budget/budget.js';
import { userMessage } from '../../../src/core/chat/messages.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { MODEL_PROFILE, type ModelProfile } from '../../../src/core/cost/model-profile.js';
import { BudgetExceededException } from '../../../src/core/errors/budget-exceeded.exception.js';
import { ContextLengthExceededException } from '../../../src/core/errors/context-length-exceeded.exception.js';
import { NoMatchingModelFoundException } from '../../../src/core/errors/exceptions.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { MODEL_ROUTER_COST_EVENTS } from '../../../src/nest/events/cost-events.js';
import { ModelRouterEventPublisher } from '../../../src/nest/events/model-router-event-publisher.js';
import { ModelRouterHealthIndicator } from '../../../src/nest/health/model-router-health.indicator.js';
import { ModelRouterHealthModule } from '../../../src/nest/health/model-router-health.module.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import { ModelRouterRegistry } from '../../../src/nest/module/model-router-registry.js';
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

describe('models addressed directly: the same budgets as groups', () => {
  // 1000 input tokens at 1 USD and 1000 output tokens at 3 USD per million: 0.004 per answer
  const priced = { profile: { pricing: { input: 1, output: 3 } }, chat: async () => answer };

  async function direct() {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ModelRouterModule.forRoot({
          models: { priced },
          routers: { main: priced },
          budgets: [{ name: 'k1-hourly', scope: { key: 'k1' }, limitUsd: 0.006, period: '1h' }],
        }),
      ],
    }).compile();
    open.push(moduleRef);
    await moduleRef.init();
    const ledger = moduleRef.get(ModelRouterRegistry).budgets;
    const service = moduleRef.get(RoutingChatService);
    const as = (key: string) => ({ attributes: { [BUDGET_DIMENSIONS.key]: key } });
    // charges are not awaited by the call: let them land
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    return { ledger, service, as, settled };
  }

  it('charges a registered model by its price and refuses it once the key’s budget is spent', async () => {
    const { ledger, service, as, settled } = await direct();
    await service.chat(ask, { model: 'priced', ...as('k1') });
    await settled();
    expect(ledger.spentUsd('k1-hourly')).toBeCloseTo(0.004, 12);
    await service.chat(ask, { model: 'priced', ...as('k1') });
    await settled();
    await expect(service.chat(ask, { model: 'priced', ...as('k1') })).rejects.toThrow(
      BudgetExceededException,
    );
    // another key is not inside that budget
    await expect(service.chat(ask, { model: 'priced', ...as('k2') })).resolves.toBeDefined();
  });

  it('refuses a stream before any event once the budget is spent', async () => {
    const { service, as, settled } = await direct();
    await service.chat(ask, { model: 'priced', ...as('k1') });
    await service.chat(ask, { model: 'priced', ...as('k1') });
    await settled();
    const events: string[] = [];
    const failure = await new Promise((resolve) =>
      service.stream(ask, { model: 'priced', ...as('k1') }).subscribe({
        next: (event) => events.push(event.type),
        error: resolve,
      }),
    );
    expect(failure).toBeInstanceOf(BudgetExceededException);
    expect(events).toEqual([]);
  });

  it('charges an ad-hoc group once: the group charges its models, the service does not again', async () => {
    const { ledger, service, as, settled } = await direct();
    const list = new ModelRouter({
      routes: [{ name: 'priced', model: priced }],
      routingStrategy: new FailoverStrategy(),
      budgets: ledger,
    });
    await service.chat(ask, { model: { name: 'list', model: list }, ...as('k1') });
    await settled();
    expect(ledger.spentUsd('k1-hourly')).toBeCloseTo(0.004, 12);
  });
  it('holds a directly addressed model to its rpm and context window, as a group does', async () => {
    const limited = {
      profile: { limits: { rpm: 1 }, contextWindow: 50 },
      chat: async () => answer,
    };
    const moduleRef = await Test.createTestingModule({
      imports: [
        ModelRouterModule.forRoot({
          models: { limited },
          routers: { main: limited },
          clock: () => HOUR * 1000 + 1_000,
        }),
      ],
    }).compile();
    open.push(moduleRef);
    await moduleRef.init();
    const service = moduleRef.get(RoutingChatService);

    const tooLong = { messages: [userMessage('word '.repeat(400))] };
    await expect(service.chat(tooLong, { model: 'limited' })).rejects.toThrow(
      ContextLengthExceededException,
    );
    await service.chat(ask, { model: 'limited' });
    const refused = await service.chat(ask, { model: 'limited' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NoMatchingModelFoundException);
    // the minute ends 59 s after the clock's time
    expect((refused as NoMatchingModelFoundException).retryAfterMs).toBe(59_000);
  });
});
