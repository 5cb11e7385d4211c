import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse, TokenUsage } from '../chat/response.js';
import { callScopeOf } from '../budget/budget.js';
import { waivedBudgetsOf } from '../budget/budget-downgrade.js';
import type { BudgetLedger, BudgetReservation, SpentBudget } from '../budget/budget-ledger.js';
import { costOf } from '../cost/cost.js';
import { profileOf } from '../cost/model-profile.js';
import { costOfResponse } from '../cost/response-cost.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import { attempt, chain, type MaybePromise } from '../state/maybe-async.js';
import type { StrategyCallContext } from '../strategies/model-routing-strategy.js';

/**
 * The budget side of each attempt of a group: before the model is called, its worst case (the
 * estimated prompt at the input price, plus the most output it may produce at the output price)
 * is reserved against every budget over the call's scope; when the attempt ends, the
 * reservation settles to what it really cost (the answer's usage, or what a cut stream used),
 * or is given back. A failover reserves again, at the next model's price. A model without a
 * price reserves nothing and is charged, as before, with whatever cost its answer carries.
 */
export class BudgetHolds {
  private readonly held = new WeakMap<object, BudgetReservation>();

  constructor(private readonly ledger: () => BudgetLedger | undefined) {}

  /**
   * Reserves `model`'s worst case for this attempt; answers the budget that had no room for
   * it, or undefined when the attempt may go ahead.
   */
  reserve(
    model: ChatModelWrapper,
    request: ChatRequest,
    promptTokens: number,
    context: StrategyCallContext | undefined,
  ): MaybePromise<SpentBudget | undefined> {
    const ledger = this.ledger();
    // without a context there is no attempt to settle later: the answer is charged instead
    if (!ledger?.size || !context) return undefined;
    const worst = worstCaseUsd(model, request, promptTokens, ledger.reserveOutputTokens);
    if (worst === undefined) return undefined;
    const scope = callScopeOf(context.attributes, context.route, model.name);
    return chain(
      attempt(
        () => ledger.reserve(scope, worst, waivedBudgetsOf(context.attributes)),
        // a store that cannot count: the call goes ahead, and is charged when it ends
        () => undefined,
      ),
      (outcome) => {
        if (outcome?.reservation) this.held.set(context, outcome.reservation);
        return outcome?.refused;
      },
    );
  }

  /**
   * The attempt answered: its cost. `response` carries usage estimated where the model reported
   * none (`withEstimatedUsage`), so a priced model is never charged nothing.
   */
  answered(
    model: ChatModelWrapper,
    response: ChatResponse,
    context: StrategyCallContext | undefined,
  ): void {
    this.end(model, costOfResponse(response, model), context);
  }

  /** The attempt ended without an answer, having used `usage` (undefined: nothing). */
  unanswered(
    model: ChatModelWrapper,
    usage: TokenUsage | undefined,
    context: StrategyCallContext | undefined,
  ): void {
    this.end(model, usage && costOf(usage, profileOf(model).pricing), context);
  }

  /** Gives a reservation back whole: the model was chosen, then not called. */
  release(context: StrategyCallContext | undefined): void {
    this.end(undefined, undefined, context);
  }

  private end(
    model: ChatModelWrapper | undefined,
    cost: number | undefined,
    context: StrategyCallContext | undefined,
  ): void {
    const ledger = this.ledger();
    if (!ledger?.size) return;
    const reservation = context && this.held.get(context);
    if (context) this.held.delete(context);
    // not awaited: the answer should not wait for a shared store to count its spend
    const work = (): MaybePromise<void> => {
      if (reservation) return ledger.settle(reservation, cost, context?.observer);
      if (cost === undefined || model === undefined) return undefined;
      const scope = callScopeOf(context?.attributes ?? {}, context?.route, model.name);
      return ledger.charge(scope, cost, context?.observer);
    };
    void attempt(work, () => undefined);
  }
}

/**
 * The most an attempt of `model` may cost: the estimated prompt at the input price, plus the
 * request's `maxOutputTokens`, else the model's, else the ledger's cap, at the output price.
 * Undefined when the model has no price.
 */
export function worstCaseUsd(
  model: ChatModelWrapper,
  request: ChatRequest,
  promptTokens: number,
  defaultOutputTokens: number,
): number | undefined {
  const profile = profileOf(model);
  if (!profile.pricing) return undefined;
  const outputTokens =
    request.parameters?.maxOutputTokens ?? profile.maxOutputTokens ?? defaultOutputTokens;
  return costOf({ inputTokens: promptTokens, outputTokens }, profile.pricing);
}
