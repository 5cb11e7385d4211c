import type { ChatModel } from '../../core/chat/chat-model.js';
import { RoutingException } from '../../core/errors/exceptions.js';
import { isInspectableRouting, type ModelStatus } from '../../core/inspection/inspection.js';
import type { RoutingEvent } from '../../core/observability/routing-event.js';
import { InMemoryRouteStateStore } from '../../core/state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../../core/state/route-state-store.js';
import type {
  ModelRouterModuleExtras,
  ModelRouterModuleOptions,
} from './model-router-module-options.js';
import { UnknownRouterException } from '../../core/errors/unknown-router.exception.js';
import { validateModuleOptions } from './validate-module-options.js';
import { quoteNames } from '../../core/errors/quote-names.js';
import { BudgetLedger } from '../../core/budget/budget-ledger.js';
import { checkBudgetFallbacks } from '../../core/budget/budget-downgrade.js';
import type { RouteShareStatus } from '../../core/routing/router-invocation.js';
import { CallCache } from '../cache/call-cache.js';
import type { CacheStats } from '../../core/cache/response-cache.js';
import { shareLatencyOf } from '../../core/inspection/inspection.js';
import { didYouMean } from '../../core/errors/closest-name.js';

/** The budgets of the options as a ledger on the module's store and clock. */
function moduleBudgets(options: ModelRouterModuleOptions, store: RouteStateStore): BudgetLedger {
  const given = options.budgets;
  const ledger =
    given instanceof BudgetLedger
      ? given
      : new BudgetLedger(given ?? [], options.clock ? { clock: options.clock } : {});
  ledger.bindRouteState({ store, ...(options.clock ? { clock: options.clock } : {}) });
  return ledger;
}

/** A component that reports events it notices outside any call (e.g. a cooldown ending). */
export interface RoutingEventSource {
  onEvent(listener: (event: RoutingEvent) => void): (() => void) | void;
}

export function isRoutingEventSource(value: unknown): value is RoutingEventSource {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { onEvent?: unknown }).onEvent === 'function'
  );
}

/** What the health check and the service see of one router. */
export interface RouterInspection {
  router: string;
  /** False when the router does not implement InspectableRouting (a plain ChatModel). */
  inspectable: boolean;
  models: ModelStatus[];
}

/**
 * The validated, start-up-time view of the module options: routers and models by name, the
 * default router and the shared state store, which it hands to every inspectable router.
 */
export class ModelRouterRegistry {
  readonly stateStore: RouteStateStore;
  readonly defaultRouter: string | undefined;
  readonly closeStateStoreOnShutdown: boolean;
  /** The module's budgets (empty when none are configured). */
  readonly budgets: BudgetLedger;
  /** The response cache, when configured. */
  readonly cache: CallCache | undefined;
  readonly closeCacheOnShutdown: boolean;
  private readonly routers: ReadonlyMap<string, ChatModel>;
  private readonly models: ReadonlyMap<string, ChatModel>;
  /** The registered models by instance: a model used alone is reported under this name. */
  private readonly namesByModel = new Map<ChatModel, string>();

  constructor(options: ModelRouterModuleOptions, extras: ModelRouterModuleExtras = {}) {
    validateModuleOptions(options, extras);
    this.routers = new Map(Object.entries(options.routers));
    this.models = new Map(Object.entries(options.models ?? {}));
    for (const [name, model] of this.models) {
      if (!this.namesByModel.has(model)) this.namesByModel.set(model, name);
    }
    this.stateStore = options.stateStore ?? new InMemoryRouteStateStore(options.clock);
    this.closeStateStoreOnShutdown = options.closeStateStoreOnShutdown ?? false;
    this.budgets = moduleBudgets(options, this.stateStore);
    checkBudgetFallbacks(
      this.budgets.budgets,
      (name) => this.routers.has(name) || this.models.has(name),
    );
    this.cache = options.cache ? new CallCache(options.cache, options.clock) : undefined;
    this.closeCacheOnShutdown = options.closeCacheOnShutdown ?? options.cache?.store === undefined;
    this.defaultRouter =
      options.defaultRouter ?? (this.routers.size === 1 ? [...this.routers.keys()][0] : undefined);
    this.bindRouteState(options);
  }

  /** The response cache's counts and hit rate since start (a status page shows them). */
  cacheStats(): (CacheStats & { hitRate: number; store: string }) | undefined {
    const cache = this.cache;
    if (cache === undefined) return undefined;
    return { ...cache.stats(), hitRate: cache.hitRate(), store: cache.cache.store.kind };
  }

  routerNames(): string[] {
    return [...this.routers.keys()];
  }

  modelNames(): string[] {
    return [...this.models.keys()];
  }

  getRouter(name: string): ChatModel | undefined {
    return this.routers.get(name);
  }

  getModel(name: string): ChatModel | undefined {
    return this.models.get(name);
  }

  /** The named router, or the default one; a clear RoutingException otherwise. */
  resolveRouter(name: string | undefined): { name: string; router: ChatModel } {
    const chosen = name ?? this.defaultRouter;
    if (chosen === undefined) {
      throw new RoutingException(
        `No router named for this call and no defaultRouter configured; pass { router } (known routers: ${quoteNames(this.routerNames())}) or set defaultRouter in ModelRouterModule options`,
      );
    }
    const router = this.routers.get(chosen);
    if (!router) {
      throw new UnknownRouterException(
        `Unknown router '${chosen}'; known routers: ${quoteNames(this.routerNames())}` +
          didYouMean(chosen, this.routerNames()),
        chosen,
        this.routerNames(),
      );
    }
    return { name: chosen, router };
  }

  resolveModel(name: string): ChatModel {
    const model = this.models.get(name);
    if (!model) {
      throw new UnknownRouterException(
        `Unknown model '${name}'; known models: ${quoteNames(this.modelNames())}` +
          didYouMean(name, this.modelNames()),
        name,
        this.modelNames(),
      );
    }
    return model;
  }

  /**
   * The configured name of a router that is one plain model (no routes, no group): its name
   * under `models`, else the router's; undefined for a routing component.
   */
  plainRouterModelName(router: string): string | undefined {
    const model = this.routers.get(router);
    if (model === undefined || isInspectableRouting(model)) return undefined;
    return this.namesByModel.get(model) ?? router;
  }

  /**
   * Every router's models as its strategies see them now (their own clock); a router that is
   * one plain model shows that model, always available (it has no circuit).
   */
  inspect(): RouterInspection[] {
    return [...this.routers].map(([router, model]) =>
      isInspectableRouting(model)
        ? { router, inspectable: true, models: model.inspectModels() }
        : {
            router,
            inspectable: false,
            models: [
              { model: this.plainRouterModelName(router)!, state: 'available', failures: 0 },
            ],
          },
    );
  }

  /** Each decision router's routes with a `targetShare`: target, achieved share, threshold. */
  routeShares(): ({ router: string } & RouteShareStatus)[] {
    return [...this.routers].flatMap(([router, model]) => {
      const shares = (model as { routeShares?: () => readonly RouteShareStatus[] }).routeShares;
      return typeof shares === 'function'
        ? shares.call(model).map((status) => ({ router, ...status }))
        : [];
    });
  }

  /** Registered models that no router's inspection names (`inspections`: from `inspect()`). */
  unroutedModels(inspections: readonly RouterInspection[]): string[] {
    const routed = new Set(inspections.flatMap(({ models }) => models.map(({ model }) => model)));
    return this.modelNames().filter((name) => !routed.has(name));
  }

  /** Subscribes to events routers notice outside calls; returns the unsubscribe functions. */
  subscribeToRouterEvents(listener: (router: string, event: RoutingEvent) => void): (() => void)[] {
    const unsubscribes: (() => void)[] = [];
    for (const [name, router] of this.routers) {
      if (!isRoutingEventSource(router)) continue;
      const unsubscribe = router.onEvent((event) => listener(name, event));
      if (typeof unsubscribe === 'function') unsubscribes.push(unsubscribe);
    }
    return unsubscribes;
  }

  private bindRouteState(options: ModelRouterModuleOptions): void {
    // every registered model's learnt waits are shared with the other replicas
    for (const model of this.models.values()) {
      shareLatencyOf(model, {
        store: this.stateStore,
        ...(options.clock ? { clock: options.clock } : {}),
      });
    }
    // a model registered under a name keeps that name where a route uses it alone
    const modelNames = this.namesByModel;
    for (const [name, router] of this.routers) {
      if (isInspectableRouting(router) && typeof router.bindRouteState === 'function') {
        router.bindRouteState({
          store: this.stateStore,
          scope: name,
          ...(modelNames.size > 0 ? { modelNames } : {}),
          ...(options.clock ? { clock: options.clock } : {}),
          ...(this.budgets.size > 0 ? { budgets: this.budgets } : {}),
        });
      }
    }
  }
}
