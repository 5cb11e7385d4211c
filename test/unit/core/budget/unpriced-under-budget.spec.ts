import { describe, expect, it } from '@jest/globals';
import { userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import { BudgetLedger } from '../../../../src/core/budget/budget-ledger.js';
import { BUDGET_DIMENSIONS } from '../../../../src/core/budget/budget.js';
import {
  MODEL_PROFILE,
  type ModelProfile,
  validateProfile,
} from '../../../../src/core/cost/model-profile.js';
import { BudgetExceededException } from '../../../../src/core/errors/budget-exceeded.exception.js';
import { errorAnswer } from '../../../../src/core/errors/error-answer.js';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import { UnpricedModelException } from '../../../../src/core/errors/unpriced-model.exception.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { InMemoryRouteStateStore } from '../../../../src/core/state/in-memory-route-state-store.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';

const NOW = 3_600_000 * 500_000;
const clock = () => NOW;
const request = { messages: [userMessage('how much is it')] };
const usage = { inputTokens: 10, outputTokens: 20, totalTokens: 30 };
const PRICED: ModelProfile = { pricing: { input: 1, output: 2 }, maxOutputTokens: 100 };
/** A `provider/model-id` model with no price known. */
const UNPRICED: ModelProfile = { unpricedUnderBudget: 'refuse' };

/** A model that answers (or fails, as an outage) and counts its calls. */
function counted(fails = false) {
  const calls = { count: 0 };
  const model: ChatModel = {
    chat: async () => {
      calls.count += 1;
      if (fails) throw Object.assign(new Error('upstream down'), { kind: 'transient' });
      return { aiMessage: { role: 'assistant', text: 'an answer' }, tokenUsage: usage };
    },
  };
  return { model, calls };
}

/** A group of `models` under a $0.001 budget over key `a`. */
function group(models: { name: string; model: ChatModel; profile: ModelProfile }[]) {
  const store = new InMemoryRouteStateStore(clock);
  const ledger = new BudgetLedger(
    [
      { name: 'key:a', scope: { key: 'a' }, limitUsd: 0.001, period: '1h' },
      { name: 'pricey', scope: { model: 'pricey' }, limitUsd: 0.001, period: '1h' },
    ],
    { store, clock },
  );
  const router = new ModelRouter({
    routes: models.map(({ name, model, profile }) => ({
      name,
      model,
      metadata: [[MODEL_PROFILE, profile]],
    })) as never,
    routingStrategy: new FailoverStrategy({ clock, cooldownMs: 0 }),
    budgets: ledger,
  });
  router.bindRouteState({ store, scope: 'group', clock });
  return { router, ledger };
}

const asKey = (key: string) => ({ attributes: { [BUDGET_DIMENSIONS.key]: key } });

describe('a model without a price under a budget (issue 24, point 3)', () => {
  it('is refused with a 403 naming it and the fixes, and is never called', async () => {
    const upstream = counted();
    const { router } = group([{ name: 'openai/gpt-x', model: upstream.model, profile: UNPRICED }]);
    const error = await router.chat(request, asKey('a')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnpricedModelException);
    expect(upstream.calls.count).toBe(0);
    const answer = errorAnswer(error);
    expect(answer).toMatchObject({ status: 403, code: 'model_unpriced', param: 'model' });
    expect(answer.message).toContain("'openai/gpt-x' has no price");
    expect(answer.message).toContain("budget 'key:a'");
    expect(answer.message).toContain('pricing');
    expect(answer.message).toContain('unpricedUnderBudget: allow');
    expect(answer.details).toEqual({ budget: 'key:a', models: 'openai/gpt-x' });
  });

  it('is served where no budget applies to the call', async () => {
    const upstream = counted();
    const { router } = group([{ name: 'openai/gpt-x', model: upstream.model, profile: UNPRICED }]);
    await expect(router.chat(request, asKey('b'))).resolves.toBeDefined();
    expect(upstream.calls.count).toBe(1);
  });

  it('is served under the budget with unpricedUnderBudget: allow, and by default', async () => {
    for (const profile of [{ unpricedUnderBudget: 'allow' } as const, {}]) {
      const upstream = counted();
      const { router, ledger } = group([{ name: 'mini', model: upstream.model, profile }]);
      await expect(router.chat(request, asKey('a'))).resolves.toBeDefined();
      expect(upstream.calls.count).toBe(1);
      expect(ledger.spentUsd('key:a')).toBe(0);
    }
  });

  it('is passed over in a failover list for a priced model, which is charged', async () => {
    const unpriced = counted();
    const priced = counted();
    const { router, ledger } = group([
      { name: 'openai/gpt-x', model: unpriced.model, profile: UNPRICED },
      { name: 'openai/gpt-y', model: priced.model, profile: PRICED },
    ]);
    const response = await router.chat(request, asKey('a'));
    expect(response.aiMessage.text).toBe('an answer');
    expect([unpriced.calls.count, priced.calls.count]).toEqual([0, 1]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ledger.spentUsd('key:a')).toBeCloseTo((10 * 1 + 20 * 2) / 1e6, 12);
  });

  it('is refused after a failed attempt too, rather than hidden in a 502', async () => {
    const failing = counted(true);
    const unpriced = counted();
    const { router } = group([
      { name: 'openai/gpt-y', model: failing.model, profile: PRICED },
      { name: 'openai/gpt-x', model: unpriced.model, profile: UNPRICED },
    ]);
    const error = await router.chat(request, asKey('a')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnpricedModelException);
    expect([failing.calls.count, unpriced.calls.count]).toEqual([1, 0]);
  });

  it('is a profile setting of refuse or allow, nothing else', () => {
    expect(validateProfile({ unpricedUnderBudget: 'refuse' }, 'models.m')).toEqual({
      unpricedUnderBudget: 'refuse',
    });
    expect(() => validateProfile({ unpricedUnderBudget: 'maybe' }, 'models.m')).toThrow(
      InvalidConfigurationException,
    );
  });
});

describe('a failover stopped by a budget', () => {
  it('answers the budget’s 429, not the first model’s failure', async () => {
    const failing = counted(true);
    const pricey = counted();
    const { router, ledger } = group([
      { name: 'cheap', model: failing.model, profile: PRICED },
      { name: 'pricey', model: pricey.model, profile: PRICED },
    ]);
    await ledger.charge({ model: 'pricey' }, 0.002);
    const error = await router.chat(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetExceededException);
    expect((error as BudgetExceededException).budget).toBe('pricey');
    expect(errorAnswer(error)).toMatchObject({ status: 429, code: 'budget_exceeded' });
    expect([failing.calls.count, pricey.calls.count]).toEqual([1, 0]);
  });

  it('streams answer the same', async () => {
    const failing = counted(true);
    const pricey = counted();
    const { router, ledger } = group([
      { name: 'cheap', model: failing.model, profile: PRICED },
      { name: 'pricey', model: pricey.model, profile: PRICED },
    ]);
    await ledger.charge({ model: 'pricey' }, 0.002);
    const read = async () => {
      for await (const _ of router.stream(request)) void _;
    };
    await expect(read()).rejects.toBeInstanceOf(BudgetExceededException);
  });
});
