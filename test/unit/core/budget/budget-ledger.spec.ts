import { describe, expect, it } from '@jest/globals';
import { userMessage } from '../../../../src/core/chat/messages.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { MODEL_PROFILE } from '../../../../src/core/cost/model-profile.js';
import { BudgetLedger } from '../../../../src/core/budget/budget-ledger.js';
import { validateBudgets } from '../../../../src/core/budget/budget.js';
import { BudgetExceededException } from '../../../../src/core/errors/budget-exceeded.exception.js';
import { errorAnswer } from '../../../../src/core/errors/error-answer.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import type { RoutingObserver } from '../../../../src/core/observability/routing-event.js';
import { fakeModel, manualClock, recorder } from '../strategies/fakes.js';

const HOUR = 3_600_000;
// every answer: 1000 in + 1000 out at 1 + 3 USD / M = 0.004 USD
const priced = { pricing: { input: 1, output: 3 } };
const usage = { inputTokens: 1000, outputTokens: 1000, totalTokens: 2000 };

const model = (name: string) => ({
  name,
  model: fakeModel(name, {
    aiMessage: { role: 'assistant' as const, text: `from ${name}` },
    tokenUsage: usage,
  }),
  metadata: [[MODEL_PROFILE, priced]] as [string, unknown][],
});

function setup(limitUsd: number, scope: Record<string, string> = {}, warnAt?: number) {
  const clock = manualClock(HOUR * 500);
  const store = new InMemoryRouteStateStore(clock.fn);
  const ledger = new BudgetLedger(
    [{ name: 'team', scope, limitUsd, period: '1h', ...(warnAt !== undefined ? { warnAt } : {}) }],
    { store, clock: clock.fn },
  );
  const router = new ModelRouter({
    routes: [model('a'), model('b')],
    routingStrategy: new FailoverStrategy({ clock: clock.fn }),
    budgets: ledger,
  });
  router.bindRouteState({ store, scope: 'g', clock: clock.fn });
  return { clock, ledger, router };
}

const ask = (
  router: ModelRouter,
  observer?: RoutingObserver,
  attributes: Record<string, unknown> = {},
) =>
  router.chat({ messages: [userMessage('hi')] }, { attributes, ...(observer ? { observer } : {}) });

describe('budgets', () => {
  it('counts spend exactly and skips the scope once over the limit; fails with a typed 429 when nothing is left', async () => {
    const { ledger, router } = setup(0.01);
    for (let i = 0; i < 3; i++) await ask(router);
    expect(ledger.spentUsd('team')).toBe(0.012);
    const error = await ask(router).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetExceededException);
    expect((error as Error).message).toContain("Budget 'team'");
    expect(errorAnswer(error)).toMatchObject({
      status: 429,
      type: 'budget_exceeded',
      code: 'budget_exceeded',
      retryAfterMs: HOUR,
      details: { budget: 'team', limit_usd: 0.01 },
    });
    expect(router.inspectModels()[0]!.skipped).toMatchObject({
      reason: 'over-budget',
      budget: 'team',
    });
  });

  it('a model-scoped budget only skips that model; others keep serving', async () => {
    const { router } = setup(0.004, { model: 'a' });
    const events = recorder();
    expect((await ask(router)).aiMessage.text).toBe('from a');
    expect((await ask(router, events.observer)).aiMessage.text).toBe('from b');
    expect(events.ofType('model-skipped')).toEqual([
      {
        type: 'model-skipped',
        model: 'a',
        reason: 'over-budget',
        budget: 'team',
        until: HOUR * 501,
      },
    ]);
  });

  it('scopes by router through the call attribute RoutingChatService sets', async () => {
    const { ledger, router } = setup(1, { router: 'support' });
    await ask(router, undefined, { model_router: 'other' });
    expect(ledger.spentUsd('team')).toBe(0);
    await ask(router, undefined, { model_router: 'support' });
    expect(ledger.spentUsd('team')).toBe(0.004);
  });

  it('resets when the period ends', async () => {
    const { clock, ledger, router } = setup(0.004);
    await ask(router);
    await expect(ask(router)).rejects.toBeInstanceOf(BudgetExceededException);
    clock.advance(HOUR);
    expect(ledger.spentUsd('team')).toBe(0);
    expect((await ask(router)).aiMessage.text).toBe('from a');
  });

  it('warns once per period at warnAt, and once when exceeded', async () => {
    const { clock, router } = setup(0.01, {}, 0.5);
    const events = recorder();
    for (let i = 0; i < 3; i++) await ask(router, events.observer);
    expect(events.ofType('budget-warning')).toEqual([
      {
        type: 'budget-warning',
        budget: 'team',
        spentUsd: 0.008,
        limitUsd: 0.01,
        resetsAt: HOUR * 501,
      },
    ]);
    expect(events.ofType('budget-exceeded')).toHaveLength(1);
    clock.advance(HOUR);
    for (let i = 0; i < 2; i++) await ask(router, events.observer);
    expect(events.ofType('budget-warning')).toHaveLength(2);
  });

  it('validates definitions, naming the budget and field', () => {
    expect(() => validateBudgets([{ name: 'x', limitUsd: 1, period: '2h' }])).toThrow(
      'budgets[0].period',
    );
    expect(() => validateBudgets([{ name: 'x', limitUsd: 0, period: '1h' }])).toThrow('limitUsd');
    expect(() =>
      validateBudgets([{ name: 'x', limitUsd: 1, period: '1h', scope: { team: 'a' } }]),
    ).toThrow('budgets[0].scope.team');
    expect(() => validateBudgets([{ name: 'x', limitUsd: 1, period: '1h', warnAt: 1.5 }])).toThrow(
      'warnAt',
    );
  });
});
