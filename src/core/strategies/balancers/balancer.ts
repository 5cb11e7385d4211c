import type { ChatRequest } from '../../chat/request.js';
import { systemClock, type Clock } from '../../clock.js';
import type { RouteStateBinding } from '../../inspection/inspection.js';
import { emitTo } from '../../observability/routing-event.js';
import { InMemoryRouteStateStore } from '../../state/in-memory-route-state-store.js';
import type { MaybePromise } from '../../state/maybe-async.js';
import type { RouteStateStore } from '../../state/route-state-store.js';
import { uniqueScope } from '../../state/unique-scope.js';
import type { ChatModelWrapper } from '../../chat/chat-model-wrapper.js';
import type { ModelRoutingStrategy, StrategyCallContext } from '../model-routing-strategy.js';
import { profileOf } from '../../cost/model-profile.js';
import { affineModel, affinityThreshold, type PromptAffinitySetting } from './prompt-affinity.js';

/** The names of the shipped balancers (the YAML `balance:` values). */
export const BALANCERS = [
  'ordered',
  'weighted',
  'least-busy',
  'lowest-latency',
  'lowest-cost',
  'lowest-token-usage',
] as const;
export type BalancerName = (typeof BALANCERS)[number];

export interface BalancerOptions {
  /** Where the balancer's counters live; default: a new in-memory store (or the module's). */
  store?: RouteStateStore;
  /** Key prefix of this group's counters; default: unique per instance (or the module's). */
  scope?: string;
  clock?: Clock;
  /**
   * Prompts sharing a prefix go to one model (rendezvous hashing), so the provider's prompt
   * cache stays warm: on by default in balancers that spread calls (weighted, least-busy), for
   * prompts from 1,024 tokens; `false` turns it off.
   */
  promptAffinity?: PromptAffinitySetting;
}

/**
 * What every balancer shares: a store and a scope that the Nest module may bind (so replicas
 * share the balancer's state), a clock, and a `model-balanced` event per choice. A balancer is a
 * ModelRoutingStrategy: use it alone, or as FailoverStrategy's `delegate`, which hands it only
 * the models whose circuit admits a request.
 */
export abstract class Balancer implements ModelRoutingStrategy {
  abstract readonly name: BalancerName;
  protected store: RouteStateStore;
  protected scope: string;
  protected clock: Clock;
  /** Whether the balancer spreads calls over models (then prompt affinity applies). */
  protected readonly spreads: boolean = false;
  /** The prompt size from which affinity applies; undefined: off. */
  private readonly affinityFrom: number | undefined;
  private readonly explicit: { store: boolean; scope: boolean; clock: boolean };

  constructor(options: BalancerOptions = {}) {
    const given = options ?? {};
    this.clock = given.clock ?? systemClock;
    this.store = given.store ?? new InMemoryRouteStateStore(this.clock);
    this.scope = given.scope ?? uniqueScope('balancer');
    this.affinityFrom = affinityThreshold(given.promptAffinity);
    this.explicit = {
      store: given.store !== undefined,
      scope: given.scope !== undefined,
      clock: given.clock !== undefined,
    };
  }

  route(
    models: readonly ChatModelWrapper[],
    request: ChatRequest,
    context?: StrategyCallContext,
  ): MaybePromise<ChatModelWrapper | undefined> {
    if (models.length === 0) return undefined;
    const affine = models.length === 1 ? undefined : this.affine(models, request, context);
    const picked =
      models.length === 1 ? models[0]! : (affine ?? this.pick(models, request, context));
    this.dispatched(picked, request, context);
    if (context?.observer) {
      emitTo(context.observer, {
        type: 'model-balanced',
        ...(context.route !== undefined ? { route: context.route } : {}),
        model: picked.name,
        balancer: this.name,
        candidates: models.length,
        ...(affine !== undefined ? { byPrefix: true as const } : {}),
      });
    }
    return picked;
  }

  bindRouteState(binding: RouteStateBinding): void {
    if (!this.explicit.store) this.store = binding.store;
    if (!this.explicit.scope) this.scope = `${binding.scope}:${this.name}`;
    if (!this.explicit.clock && binding.clock) this.clock = binding.clock;
  }

  /** The model of the prompt's prefix, when prompt affinity applies to this call. */
  protected affine(
    models: readonly ChatModelWrapper[],
    request: ChatRequest,
    context: StrategyCallContext | undefined,
  ): ChatModelWrapper | undefined {
    if (!this.spreads || this.affinityFrom === undefined) return undefined;
    return affineModel(models, request, context, this.affinityFrom, (model) =>
      this.weightOf(model),
    );
  }

  /** A model's share under affinity: its profile `weight`, default 1. */
  weightOf(model: ChatModelWrapper): number {
    return profileOf(model).weight ?? 1;
  }

  /** Chooses among two or more candidates. */
  protected abstract pick(
    models: readonly ChatModelWrapper[],
    request: ChatRequest,
    context: StrategyCallContext | undefined,
  ): ChatModelWrapper;

  /** Bookkeeping once a model is chosen (in-flight counts, timers); none by default. */
  protected dispatched(
    _model: ChatModelWrapper,
    _request: ChatRequest,
    _context: StrategyCallContext | undefined,
  ): void {}

  protected key(model: ChatModelWrapper | string, what: string): string {
    return `${this.scope}:${typeof model === 'string' ? model : model.name}:${what}`;
  }
}

/** The first candidate, in registration order: today's failover order. */
export class OrderedBalancer extends Balancer {
  readonly name = 'ordered' as const;

  protected pick(models: readonly ChatModelWrapper[]): ChatModelWrapper {
    return models[0]!;
  }
}
