import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import { systemClock, type Clock } from '../clock.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import type {
  InspectableRouting,
  ModelStatus,
  RouteStateBinding,
} from '../inspection/inspection.js';
import { InMemoryRouteStateStore } from '../state/in-memory-route-state-store.js';
import { isPromiseLike, type MaybePromise } from '../state/maybe-async.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import { GroupModels } from './group-models.js';
import type { ModelRoutingStrategy, StrategyCallContext } from './model-routing-strategy.js';
import { estimateRequestTokens, type TokenEstimator } from '../cost/token-estimate.js';
import { uniqueScope } from '../state/unique-scope.js';

export interface LowestTokenUsageOptions {
  /** Where usage and reservations are counted; default: a new in-memory store. */
  store?: RouteStateStore;
  /** Key prefix of this group's counters; default: unique per strategy instance. */
  scope?: string;
  clock?: Clock;
  /** What a request reserves when dispatched; default: prompt characters / 4 + maxOutputTokens. */
  estimateTokens?: TokenEstimator;
}

interface Reservation {
  readonly key: string;
  readonly tokens: number;
}

/**
 * Sends each request to the model that has used the fewest tokens (`tokenUsage.totalTokens`,
 * missing → 0); ties go to the first registered, so equal usage alternates. A dispatched request
 * reserves an estimate until its real usage is known, so concurrent requests spread out instead
 * of all landing on the model that was lowest when they started.
 */
export class LowestTokenUsageRoutingStrategy implements ModelRoutingStrategy, InspectableRouting {
  protected store: RouteStateStore;
  protected scope: string;
  protected readonly estimate: TokenEstimator;
  private readonly explicit: { store: boolean; scope: boolean };
  private readonly models = new GroupModels('LowestTokenUsageRoutingStrategy');
  /** Reservations of in-flight attempts, keyed by the attempt's context. */
  private readonly reservations = new WeakMap<object, Reservation>();
  /** Deltas sent to a store that did not show them yet (a remote store's local view may lag). */
  private readonly unacknowledged = new Map<string, number>();

  constructor(options: LowestTokenUsageOptions = {}) {
    const given = options ?? {};
    if (given.estimateTokens !== undefined && typeof given.estimateTokens !== 'function') {
      throw new InvalidConfigurationException(
        'estimateTokens must be a function (request) => number of tokens the request may use.',
      );
    }
    this.estimate = given.estimateTokens ?? estimateRequestTokens;
    this.store = given.store ?? new InMemoryRouteStateStore(given.clock ?? systemClock);
    this.scope = given.scope ?? uniqueScope('tokens');
    this.explicit = { store: given.store !== undefined, scope: given.scope !== undefined };
  }

  route(
    models: readonly ChatModelWrapper[],
    request: ChatRequest,
    context?: StrategyCallContext,
  ): ChatModelWrapper | undefined {
    if (models.length === 0) return undefined;
    this.models.see(models);
    let best = models[0]!;
    let lowest = this.load(best);
    for (const model of models.slice(1)) {
      const load = this.load(model);
      if (load < lowest) {
        best = model;
        lowest = load;
      }
    }
    if (context) this.reserve(best, request, context);
    return best;
  }

  onSuccess(
    model: ChatModelWrapper,
    response: ChatResponse,
    _request: ChatRequest,
    context?: StrategyCallContext,
  ): void {
    this.release(context);
    // The contract counts `totalTokens` only (missing → 0); providers fill it from input + output.
    const used = validTokens(response?.tokenUsage?.totalTokens);
    if (used > 0) this.add(this.usageKey(model), used);
  }

  onFailure(
    _model: ChatModelWrapper,
    _error: unknown,
    _request: ChatRequest,
    context?: StrategyCallContext,
  ): void {
    this.release(context);
  }

  onCancel(
    _model: ChatModelWrapper,
    _reason: unknown,
    _request: ChatRequest,
    context?: StrategyCallContext,
  ): void {
    this.release(context);
  }

  registerModels(models: readonly ChatModelWrapper[]): void {
    this.models.register(models);
  }

  /** Accumulated real usage of a model (reservations excluded). */
  tokensOf(model: ChatModelWrapper | string): number {
    return this.read(this.usageKey(model));
  }

  inspectModels(): ModelStatus[] {
    return this.models.list().map((model) => ({
      model: model.name,
      state: 'available',
      failures: 0,
      tokens: this.tokensOf(model),
    }));
  }

  bindRouteState(binding: RouteStateBinding): void {
    if (!this.explicit.store) this.store = binding.store;
    if (!this.explicit.scope) this.scope = binding.scope;
  }

  /**
   * Usage plus what in-flight requests reserved: what a new request is balanced on. The reserved
   * sum is never below zero, but a shared store's view can be for a moment: a reservation counted
   * while Redis was away reaches it after its own release did, and another replica reading then
   * would take a model with usage for an idle one.
   */
  protected load(model: ChatModelWrapper): number {
    return this.read(this.usageKey(model)) + Math.max(0, this.read(this.reservedKey(model)));
  }

  protected usageKey(model: ChatModelWrapper | string): string {
    return `${this.scope}:${typeof model === 'string' ? model : model.name}`;
  }

  protected reservedKey(model: ChatModelWrapper | string): string {
    return `${this.usageKey(model)}:reserved`;
  }

  private reserve(model: ChatModelWrapper, request: ChatRequest, context: object): void {
    this.release(context); // a context reserves once: a retried route() replaces its reservation
    let tokens: number;
    try {
      tokens = Math.max(0, Number(this.estimate(request)) || 0);
    } catch {
      tokens = estimateRequestTokens(request);
    }
    const reservation = { key: this.reservedKey(model), tokens };
    this.reservations.set(context, reservation);
    this.add(reservation.key, tokens);
  }

  private release(context: object | undefined): void {
    if (!context) return;
    const reservation = this.reservations.get(context);
    if (!reservation) return;
    this.reservations.delete(context);
    this.add(reservation.key, -reservation.tokens);
  }

  private read(key: string): number {
    return this.store.getTokens(key) + (this.unacknowledged.get(key) ?? 0);
  }

  /**
   * Adds to a counter. When the store does not show the delta at once, it is counted locally
   * until the store confirms it, so the next dispatch in this tick already sees it.
   */
  private add(key: string, delta: number): void {
    if (delta === 0) return;
    const before = this.store.getTokens(key);
    let result: MaybePromise<number>;
    try {
      result = this.store.addTokens(key, delta);
    } catch {
      return; // counting is best effort: a store failure must not fail the call
    }
    if (!isPromiseLike(result)) return;
    const shown = this.store.getTokens(key) - before === delta;
    if (!shown) this.track(key, delta);
    result.then(
      () => {
        if (!shown) this.track(key, -delta);
      },
      () => {
        if (!shown) this.track(key, -delta);
      },
    );
  }

  private track(key: string, delta: number): void {
    const total = (this.unacknowledged.get(key) ?? 0) + delta;
    if (total === 0) this.unacknowledged.delete(key);
    else this.unacknowledged.set(key, total);
  }
}

function validTokens(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
