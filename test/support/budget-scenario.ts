import { userMessage } from '../../src/core/chat/messages.js';
import type { ChatModel } from '../../src/core/chat/chat-model.js';
import type { ChatResponse } from '../../src/core/chat/response.js';
import { BudgetLedger } from '../../src/core/budget/budget-ledger.js';
import { BudgetExceededException } from '../../src/core/errors/budget-exceeded.exception.js';
import { NoMatchingModelFoundException } from '../../src/core/errors/exceptions.js';
import { costOf, estimatePromptTokens } from '../../src/core/cost/cost.js';
import { MODEL_PROFILE, type ModelProfile } from '../../src/core/cost/model-profile.js';
import { ModelRouter } from '../../src/core/group/model-router.js';
import type { RouteStateStore } from '../../src/core/state/route-state-store.js';
import { FailoverStrategy } from '../../src/core/strategies/failover-strategy.js';

/** Budgets under concurrency (issue 24, point 1): the scenario both stores run. */
export const BUDGET_USD = 0.05;
const HOUR = 3_600_000;
export const NOW = HOUR * 500_000 + 1_000;
export const clock = () => NOW;

export const request = { messages: [userMessage('how much is it')] };
/** Each answer: 10 prompt tokens and 1,200 output tokens. */
const usage = { inputTokens: 10, outputTokens: 1200, totalTokens: 1210 };
/** The most a model may write in one answer: its worst case. */
const MAX_OUTPUT = 2000;

export const CHEAP: ModelProfile = {
  pricing: { input: 1, output: 2 },
  maxOutputTokens: MAX_OUTPUT,
};
export const PRICEY: ModelProfile = {
  pricing: { input: 10, output: 20 },
  maxOutputTokens: MAX_OUTPUT,
};

/** The worst case the group reserves for one call of a model with `profile`. */
export function worstCase(profile: ModelProfile): number {
  return costOf(
    { inputTokens: estimatePromptTokens(request), outputTokens: MAX_OUTPUT },
    profile.pricing,
  )!;
}

/** What one answer of a model with `profile` costs. */
export function answerCost(profile: ModelProfile): number {
  return costOf(usage, profile.pricing)!;
}

/** A model that answers (or fails) after a turn of the event loop, so calls overlap. */
function model(fails: boolean, served: { count: number }): ChatModel {
  return {
    chat: async (): Promise<ChatResponse> => {
      await new Promise((resolve) => setImmediate(resolve));
      if (fails) throw Object.assign(new Error('upstream down'), { kind: 'transient' });
      served.count += 1;
      return { aiMessage: { role: 'assistant', text: 'priced answer' }, tokenUsage: usage };
    },
  };
}

/**
 * One replica's group on `store`, under one budget of $0.05. `failover`: its first model always
 * fails, and every call fails over to a model ten times pricier.
 */
export function budgetedReplica(store: RouteStateStore, failover = false) {
  const ledger = new BudgetLedger([{ name: 'team', limitUsd: BUDGET_USD, period: '1h' }], {
    store,
    clock,
  });
  const served = { count: 0 };
  const routes = failover
    ? [
        { name: 'cheap', model: model(true, served), metadata: [[MODEL_PROFILE, CHEAP]] },
        { name: 'pricey', model: model(false, served), metadata: [[MODEL_PROFILE, PRICEY]] },
      ]
    : [{ name: 'cheap', model: model(false, served), metadata: [[MODEL_PROFILE, CHEAP]] }];
  const router = new ModelRouter({
    routes: routes as never,
    // no cooldown: every call tries the failing model first, and fails over
    routingStrategy: new FailoverStrategy({ clock, cooldownMs: 0 }),
    budgets: ledger,
  });
  router.bindRouteState({ store, scope: 'group', clock });
  return { router, ledger, served };
}

/**
 * Sends `count` calls at once, spread over the replicas; counts the answers and the refusals
 * (the budget's 429, or a failover stopped by it).
 */
export async function concurrentCalls(
  replicas: { router: ModelRouter }[],
  count: number,
): Promise<{ answered: number; refused: number; other: unknown[] }> {
  const outcomes = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      replicas[i % replicas.length]!.router.chat(request).then(
        () => 'answered',
        (error: unknown) => error,
      ),
    ),
  );
  // a call whose first model failed reports that failure, and the budget that stopped its failover
  const refused = outcomes.filter(
    (o) =>
      o instanceof BudgetExceededException ||
      (o instanceof NoMatchingModelFoundException && o.message.includes("Budget 'team'")),
  );
  return {
    answered: outcomes.filter((o) => o === 'answered').length,
    refused: refused.length,
    other: outcomes.filter((o) => o !== 'answered' && !refused.includes(o)),
  };
}
