import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import { systemClock, type Clock } from '../clock.js';
import { callScopeOf, matches, type BudgetScope } from '../budget/budget.js';
import type { BudgetLedger } from '../budget/budget-ledger.js';
import { estimatePromptTokens } from '../cost/cost.js';
import { totalTokensOf } from '../chat/response.js';
import type { SpentBudget } from '../budget/budget-ledger.js';
import { BudgetHolds } from './budget-holds.js';
import { waivedBudgetsOf } from '../budget/budget-downgrade.js';
import { profileOf } from '../cost/model-profile.js';
import { withEstimatedUsage } from '../cost/usage-estimate.js';
import { BudgetExceededException } from '../errors/budget-exceeded.exception.js';
import { ContextLengthExceededException } from '../errors/context-length-exceeded.exception.js';
import { UnpricedModelException } from '../errors/unpriced-model.exception.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import type { RouteStateBinding } from '../inspection/inspection.js';
import { emitTo, type RoutingObserver, type SkipReason } from '../observability/routing-event.js';
import { windowEnd } from '../state/counter-store.js';
import { InMemoryRouteStateStore } from '../state/in-memory-route-state-store.js';
import { chain, type MaybePromise } from '../state/maybe-async.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import type {
  ModelRoutingStrategy,
  StrategyCallContext,
} from '../strategies/model-routing-strategy.js';
import { rateLimitAttribute } from './provider-quota.js';
import { RateLimits, type LimitUsage, type RateClaim } from './rate-limits.js';

export interface ModelChecksOptions {
  budgets?: BudgetLedger;
  store?: RouteStateStore;
  clock?: Clock;
}

/** Why a model is passed over right now (health shows it). */
export interface ModelSkip {
  reason: SkipReason;
  until?: number;
  budget?: string;
}

interface Skipped extends ModelSkip {
  model: ChatModelWrapper;
}

/**
 * The checks before a call, around a group's strategy: a model whose context window cannot hold
 * the request, that is at its rpm/tpm (or its provider's quota), or that a budget has closed, is
 * passed over for this call (not failed, not cooled down) and reported as `model-skipped`; the
 * strategy chooses among the rest. A chosen model with limits takes its slot atomically; one
 * that lost the race is released and the strategy chooses again without it. When nothing is
 * left the caller gets why: context (400), budget (429), no price under a budget (403), or rate
 * limits (a retry-after hint).
 */
export class ModelChecks implements ModelRoutingStrategy {
  private budgets: BudgetLedger | undefined;
  private ownStore: RouteStateStore | undefined;
  private clock: Clock;
  private readonly explicit: { store: boolean; clock: boolean };
  private readonly limits = new RateLimits(() => this.store);
  private readonly claims = new WeakMap<object, RateClaim>();
  private readonly holds = new BudgetHolds(() => this.budgets);
  /** Any model with a context window or limits: otherwise checks cost nothing per call. */
  private readonly profiled: boolean;
  private quotaSeen = false;
  /** The scope of each model's latest call: what health checks budgets against outside a call. */
  private readonly lastScope = new Map<string, BudgetScope>();

  constructor(
    private readonly inner: ModelRoutingStrategy,
    models: readonly ChatModelWrapper[],
    options: ModelChecksOptions = {},
  ) {
    this.budgets = options.budgets;
    this.clock = options.clock ?? systemClock;
    this.ownStore = options.store;
    this.explicit = { store: options.store !== undefined, clock: options.clock !== undefined };
    this.profiled = models.some((model) => {
      const profile = profileOf(model);
      return profile.contextWindow !== undefined || profile.limits !== undefined;
    });
  }

  route(
    models: readonly ChatModelWrapper[],
    request: ChatRequest,
    context?: StrategyCallContext,
  ): MaybePromise<ChatModelWrapper | undefined> {
    if (!this.active()) return this.inner.route(models, request, context);
    const now = this.clock();
    const prompt = estimatePromptTokens(request);
    const output = request.parameters?.maxOutputTokens ?? 0;
    const left: ChatModelWrapper[] = [];
    const skipped: Skipped[] = [];
    for (const model of models) {
      const skip = this.skipOf(model, prompt, output, context, now);
      if (skip) skipped.push({ model, ...skip });
      else left.push(model);
    }
    // a sticky preference is asked about first; the full choice that follows reports the skip
    if (!context?.onlyIfAvailable) {
      for (const skip of skipped) this.report(skip, context?.observer, context?.route);
    }
    if (left.length === 0) return this.nothingLeft(skipped, prompt, output, context, now);
    return this.chooseAndClaim(left, request, context, { prompt, tokens: prompt + output }, now);
  }

  /** The model's use of its `rpm` / `tpm` limits this minute (none: it has no limits). */
  limitUsageOf(model: ChatModelWrapper): LimitUsage | undefined {
    try {
      return this.limits.usage(model, this.clock());
    } catch {
      // a status read never fails a health check or a page
      return undefined;
    }
  }

  /** Why `model` would be passed over now by any request (rate limits, budgets). */
  skipOf(
    model: ChatModelWrapper,
    prompt = 0,
    output = 0,
    context?: StrategyCallContext,
    now = this.clock(),
  ): ModelSkip | undefined {
    const window = profileOf(model).contextWindow;
    if (window !== undefined && prompt + output > window) return { reason: 'context' };
    const until = this.limits.blockedUntil(model, prompt + output, now);
    if (until !== undefined) return { reason: 'rate-limited', until };
    if (!this.budgets?.size) return undefined;
    let scope = this.lastScope.get(model.name) ?? { model: model.name };
    if (context) {
      scope = callScopeOf(context.attributes, context.route, model.name);
      this.lastScope.set(model.name, scope);
    }
    const over = this.budgets.exceeded(scope, context && waivedBudgetsOf(context.attributes));
    if (over) return { reason: 'over-budget', until: over.resetsAt, budget: over.budget.name };
    // a call's verdict only: outside a call (health) no budget is known to apply
    if (context) return this.unpriced(model, scope);
    return undefined;
  }

  /** A model that must have a price under a budget, without one, and the budget over the call. */
  private unpriced(model: ChatModelWrapper, scope: BudgetScope): ModelSkip | undefined {
    const profile = profileOf(model);
    if (profile.pricing || profile.unpricedUnderBudget !== 'refuse') return undefined;
    const budget = this.budgets?.budgets.find((candidate) => matches(candidate, scope));
    return budget ? { reason: 'unpriced', budget: budget.name } : undefined;
  }

  onSuccess(
    model: ChatModelWrapper,
    response: ChatResponse,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void> {
    // a model that reported no usage is charged its estimate (the project's providers estimate
    // their own answers, so theirs come through as they are); the answer itself is not changed
    const used = withEstimatedUsage(request, response);
    this.settle(context, totalTokensOf(used.tokenUsage));
    const headers = rateLimitAttribute.of(response?.aiMessage?.attributes);
    if (headers !== undefined) {
      this.quotaSeen = true;
      this.limits.observeQuota(model.name, headers, this.clock());
    }
    this.holds.answered(model, used, context);
    return this.inner.onSuccess?.(model, response, request, context);
  }

  onFailure(
    model: ChatModelWrapper,
    error: unknown,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void> {
    this.settleUnanswered(model, context);
    return this.inner.onFailure?.(model, error, request, context);
  }

  onCancel(
    model: ChatModelWrapper,
    reason: unknown,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void> {
    this.settleUnanswered(model, context);
    return this.inner.onCancel?.(model, reason, request, context);
  }

  onFirstToken(model: ChatModelWrapper, request: ChatRequest, context?: StrategyCallContext) {
    return this.inner.onFirstToken?.(model, request, context);
  }

  retryAfterMs(models: readonly ChatModelWrapper[]): number | undefined {
    const inner = this.inner.retryAfterMs?.(models);
    if (inner !== undefined || !this.active()) return inner;
    const now = this.clock();
    let earliest = Number.POSITIVE_INFINITY;
    for (const model of models) {
      const skip = this.skipOf(model, 0, 0, undefined, now);
      if (skip?.reason !== 'rate-limited' || skip.until === undefined) return undefined;
      earliest = Math.min(earliest, skip.until);
    }
    return Number.isFinite(earliest) ? Math.max(0, earliest - now) : undefined;
  }

  registerModels(models: readonly ChatModelWrapper[]): void {
    this.inner.registerModels?.(models);
  }

  /** The strategy's events (budgets, shared by groups, are subscribed to on the ledger). */
  onEvent(listener: RoutingObserver): () => void {
    return this.inner.onEvent?.(listener) ?? (() => undefined);
  }

  bindRouteState(binding: RouteStateBinding): void {
    if (!this.explicit.store) this.ownStore = binding.store;
    if (!this.explicit.clock && binding.clock) this.clock = binding.clock;
    if (!this.budgets && binding.budgets) this.budgets = binding.budgets;
  }

  /** Created on first use: a group built per request (the gateway's lists) may never need it. */
  private get store(): RouteStateStore {
    return (this.ownStore ??= new InMemoryRouteStateStore(this.clock));
  }

  private active(): boolean {
    return this.profiled || this.quotaSeen || (this.budgets?.size ?? 0) > 0;
  }

  /**
   * The strategy's pick, once it took its slot of the model's minute and reserved its worst case
   * against the budgets over the call; a model that lost either to a concurrent call is passed
   * over and the strategy chooses again without it. When every candidate lost its budget, the
   * call is refused with that budget (429).
   */
  private chooseAndClaim(
    candidates: readonly ChatModelWrapper[],
    request: ChatRequest,
    context: StrategyCallContext | undefined,
    size: { prompt: number; tokens: number },
    now: number,
    refused?: SpentBudget,
    passedOver: string[] = [],
  ): MaybePromise<ChatModelWrapper | undefined> {
    if (candidates.length === 0) {
      if (!refused || context?.onlyIfAvailable) return undefined;
      throw this.overBudget(refused, passedOver, now);
    }
    const again = (model: ChatModelWrapper, budget: SpentBudget | undefined) => {
      // the strategy chooses again without it
      const released = this.inner.onCancel?.(model, undefined, request, context);
      return chain(released ?? undefined, () =>
        this.chooseAndClaim(
          candidates.filter((c) => c !== model),
          request,
          context,
          size,
          now,
          budget ?? refused,
          [...passedOver, model.name],
        ),
      );
    };
    return chain(this.inner.route(candidates, request, context), (picked) => {
      const model = picked && candidates.find((c) => c === picked || c.name === picked.name);
      if (!model) return picked; // none, or not one of ours (ModelRouter reports that)
      return chain(this.limits.claim(model, size.tokens, now), (claim) => {
        if (!claim) {
          // lost the minute's last slot to a concurrent call
          this.report(
            { model, reason: 'rate-limited', until: windowEnd({ windowMs: 60_000, now }) },
            context?.observer,
            context?.route,
          );
          return again(model, undefined);
        }
        if (context) this.claims.set(context, claim);
        return chain(this.holds.reserve(model, request, size.prompt, context), (over) => {
          if (!over) return model;
          // calls in progress hold the rest of a budget (or spent it): give the slot back
          this.settle(context, 0);
          this.report(
            { model, reason: 'over-budget', until: over.resetsAt, budget: over.budget.name },
            context?.observer,
            context?.route,
          );
          return again(model, over);
        });
      });
    });
  }

  private overBudget(over: SpentBudget, models: string[], now: number): BudgetExceededException {
    return new BudgetExceededException({
      budget: over.budget.name,
      limitUsd: over.budget.limitUsd,
      spentUsd: over.spentUsd,
      ...(over.reservedUsd !== undefined ? { reservedUsd: over.reservedUsd } : {}),
      resetsAt: over.resetsAt,
      now,
      models,
    });
  }

  private nothingLeft(
    skipped: Skipped[],
    prompt: number,
    output: number,
    context: StrategyCallContext | undefined,
    now: number,
  ): undefined {
    // a sticky preference only asks about one model: no verdict on the call
    if (context?.onlyIfAvailable) return undefined;
    if (skipped.every((skip) => skip.reason === 'context')) {
      throw new ContextLengthExceededException({
        promptTokens: prompt,
        outputTokens: output,
        largestContextWindow: Math.max(
          ...skipped.map((s) => profileOf(s.model).contextWindow ?? 0),
        ),
        models: skipped.map((s) => s.model.name),
      });
    }
    // rate limits end within the minute: no model now, and a retry-after hint
    if (skipped.some((skip) => skip.reason === 'rate-limited')) return undefined;
    const budget = skipped.find((skip) => skip.reason === 'over-budget');
    if (!budget) {
      // what is left: models without a price, under a budget that cannot count their spend
      const unpriced = skipped.filter((skip) => skip.reason === 'unpriced');
      throw new UnpricedModelException({
        models: unpriced.map((skip) => skip.model.name),
        budget: unpriced[0]!.budget!,
      });
    }
    const over = this.budgets!.statusOf(budget.budget!)!;
    throw this.overBudget(
      over,
      skipped.map((s) => s.model.name),
      now,
    );
  }

  /**
   * An attempt that ended without an answer: what it used before it ended (a stream cut after
   * output began, a caller gone mid-call) is charged like an answer's; its reservations are
   * given back when it used nothing.
   */
  private settleUnanswered(model: ChatModelWrapper, context: StrategyCallContext | undefined) {
    const usage = context?.usage;
    this.settle(context, totalTokensOf(usage));
    this.holds.unanswered(model, usage, context);
  }

  private settle(context: object | undefined, usedTokens: number): void {
    if (!context) return;
    const claim = this.claims.get(context);
    if (!claim) return;
    this.claims.delete(context);
    this.limits.settle(claim, usedTokens);
  }

  private report(skip: Skipped, observer: RoutingObserver | undefined, route: string | undefined) {
    emitTo(observer, {
      type: 'model-skipped',
      ...(route !== undefined ? { route } : {}),
      model: skip.model.name,
      reason: skip.reason,
      ...(skip.until !== undefined ? { until: skip.until } : {}),
      ...(skip.budget !== undefined ? { budget: skip.budget } : {}),
    });
  }
}
