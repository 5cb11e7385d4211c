import { describe, expect, it } from '@jest/globals';
import { BudgetLedger } from '../../../../src/core/budget/budget-ledger.js';
import { validateBudgets } from '../../../../src/core/budget/budget.js';
import {
  BudgetDowngrades,
  checkBudgetFallbacks,
  downgradedAttribute,
} from '../../../../src/core/budget/budget-downgrade.js';
import { Capability } from '../../../../src/core/chat/capability.js';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import { MODEL_PROFILE } from '../../../../src/core/cost/model-profile.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import type { RoutingEvent } from '../../../../src/core/observability/routing-event.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';

const HOUR = 3_600_000;
const NOW = HOUR * 500 + 1_000;
const request: ChatRequest = { messages: [{ role: 'user', content: 'hello there' }] };

/** Answers with 1,000 input and 1,000 output tokens: 0.002 USD at { input: 1, output: 1 }. */
function model(text: string, capabilities: Capability[] = []): ChatModel {
  return {
    chat: async () => ({
      aiMessage: { role: 'assistant', text },
      tokenUsage: { inputTokens: 1_000, outputTokens: 1_000, totalTokens: 2_000 },
    }),
    supportedCapabilities: () => new Set(capabilities),
  };
}

/** The price every test model has: 1 USD per million input and output tokens. */
const priced = () =>
  new Map([[MODEL_PROFILE, { pricing: { input: 1, output: 1 }, maxOutputTokens: 1_000 }]]);

function group(name: string, budgets: BudgetLedger, chat = model(name)): ModelRouter {
  return new ModelRouter({
    routingStrategy: new FailoverStrategy(),
    routes: [
      {
        name,
        model: chat,
        metadata: priced(),
      },
    ],
    budgets,
  });
}

function setup(smallLimitUsd = 0.003, bigModel?: ChatModel) {
  const store = new InMemoryRouteStateStore(() => NOW);
  const budgets = new BudgetLedger(
    [
      {
        name: 'big-budget',
        scope: { model: 'big' },
        limitUsd: 0.003,
        period: '1h',
        fallback: 'small',
      },
      { name: 'small-budget', scope: { model: 'small' }, limitUsd: smallLimitUsd, period: '1h' },
      { name: 'team', scope: { key: 'team' }, limitUsd: 1, period: '1h' },
    ],
    { store, clock: () => NOW },
  );
  const routers: Record<string, ChatModel> = {
    big: group('big', budgets, bigModel),
    small: group('small', budgets),
  };
  const downgrades = new BudgetDowngrades(
    budgets,
    (name) => routers[name] && { model: routers[name] },
    () => NOW,
  );
  return { budgets, downgrades, main: downgrades.wrap(routers.big!, 'big') };
}

const answerText = async (chat: ChatModel, events: RoutingEvent[] = []) =>
  (
    await chat.chat(request, {
      attributes: { model_router_key: 'team' },
      observer: (e) => events.push(e),
    })
  ).aiMessage.text;

describe('budget downgrade', () => {
  it('sends calls a spent budget refuses to its fallback, then refuses when that is spent too', async () => {
    const { budgets, downgrades, main } = setup();
    expect(await answerText(main)).toBe('big');
    expect(await answerText(main)).toBe('big');
    const events: RoutingEvent[] = [];
    expect(await answerText(main, events)).toBe('small');
    expect(events).toContainEqual({
      type: 'budget-downgraded',
      budget: 'big-budget',
      from: 'big',
      to: 'small',
    });
    expect(await answerText(main)).toBe('small');
    // the fallback's own budget is not escaped
    await expect(answerText(main)).rejects.toMatchObject({ budget: 'small-budget' });
    expect(budgets.spentUsd('small-budget')).toBe(0.004);
    // every call counts against the budget over all of them
    expect(budgets.spentUsd('team')).toBe(0.008);
    expect(downgrades.report()).toEqual([
      { budget: 'big-budget', to: 'small', count: 3, lastAt: NOW },
    ]);
  });

  it('keeps the refusal when the fallback cannot honour the request', async () => {
    // only the big model declares JSON-schema output
    const { main } = setup(0.003, model('big', [Capability.RESPONSE_FORMAT_JSON_SCHEMA]));
    const schema: ChatRequest = {
      ...request,
      parameters: { responseFormat: { type: 'json', jsonSchema: { name: 'x', schema: {} } } },
    };
    await main.chat(schema);
    await main.chat(schema);
    await expect(main.chat(schema)).rejects.toMatchObject({ budget: 'big-budget' });
    // a plain request still goes down to it
    expect(await answerText(main)).toBe('small');
  });

  it('waives the budget for the downgraded call, but never for the model it names', async () => {
    const store = new InMemoryRouteStateStore(() => NOW);
    const budgets = new BudgetLedger(
      [
        { name: 'team', scope: { key: 'team' }, limitUsd: 1, period: '1h', fallback: 'x' },
        { name: 'big-budget', scope: { model: 'big' }, limitUsd: 1, period: '1h', fallback: 'x' },
      ],
      { store, clock: () => NOW },
    );
    await budgets.charge({ key: 'team', model: 'big' }, 1);
    const waived = new Set(['team', 'big-budget']);
    expect(budgets.exceeded({ key: 'team', model: 'small' }, waived)).toBeUndefined();
    expect(budgets.exceeded({ key: 'team', model: 'big' }, waived)).toMatchObject({
      budget: { name: 'big-budget' },
    });
    expect(downgradedAttribute.entry(['team'])).toEqual({ model_router_downgraded: ['team'] });
  });

  it('a fallback group that holds the spent model serves from its other models', async () => {
    const store = new InMemoryRouteStateStore(() => NOW);
    const budgets = new BudgetLedger(
      [
        {
          name: 'big-budget',
          scope: { model: 'big' },
          limitUsd: 0.001,
          period: '1h',
          fallback: 'pool',
        },
      ],
      { store, clock: () => NOW },
    );
    const profile = priced();
    const pool = new ModelRouter({
      routingStrategy: new FailoverStrategy(),
      routes: [
        { name: 'big', model: model('big'), metadata: profile },
        { name: 'small', model: model('small'), metadata: profile },
      ],
      budgets,
    });
    const downgrades = new BudgetDowngrades(budgets, (name) =>
      name === 'pool' ? { model: pool } : undefined,
    );
    const main = downgrades.wrap(group('big', budgets), 'big');
    expect(await answerText(main)).toBe('big');
    expect(await answerText(main)).toBe('small');
    expect(budgets.spentUsd('big-budget')).toBe(0.002);
  });
});

const known = (name: string) => ['a', 'b', 'c'].includes(name);

describe('budget fallbacks checked at start', () => {
  it('names the field of a fallback that is not configured', () => {
    const budgets = validateBudgets([{ name: 'x', limitUsd: 1, period: '1d', fallback: 'nope' }]);
    expect(() => checkBudgetFallbacks(budgets, known)).toThrow(/budgets\[0\]\.fallback: 'nope'/);
  });

  it('refuses a blank fallback and a fallback to the budget’s own scope', () => {
    expect(() =>
      validateBudgets([{ name: 'x', limitUsd: 1, period: '1d', fallback: ' ' }]),
    ).toThrow(/budgets\[0\]\.fallback must be the name/);
    const own = validateBudgets([
      { name: 'x', scope: { router: 'a' }, limitUsd: 1, period: '1d', fallback: 'a' },
    ]);
    expect(() => checkBudgetFallbacks(own, known)).toThrow(/own scope/);
  });

  it('refuses fallbacks that form a cycle', () => {
    const budgets = validateBudgets([
      { name: 'x', scope: { router: 'a' }, limitUsd: 1, period: '1d', fallback: 'b' },
      { name: 'y', scope: { router: 'b' }, limitUsd: 1, period: '1d', fallback: 'c' },
      { name: 'z', scope: { model: 'c' }, limitUsd: 1, period: '1d', fallback: 'a' },
    ]);
    expect(() => checkBudgetFallbacks(budgets, known)).toThrow(/cycle \(a → b → c → a\)/);
    expect(() => checkBudgetFallbacks(budgets.slice(0, 2), known)).not.toThrow();
  });
});
