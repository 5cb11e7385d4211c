import type { ModelStatus } from '../../core/inspection/inspection.js';
import { InMemoryRouteStateStore } from '../../core/state/in-memory-route-state-store.js';
import type { RouteStateStore } from '../../core/state/route-state-store.js';
import { scrubCredentials, safeErrorSummary } from '../../core/observability/scrub-credentials.js';
import type { ModelRouterRegistry, RouterInspection } from '../module/model-router-registry.js';
import type { BudgetStatus } from '../../core/budget/budget-ledger.js';

export type HealthStatus = 'up' | 'degraded' | 'down';

export interface ModelHealth {
  state: ModelStatus['state'];
  route?: string;
  /** ISO time the cooldown ends. */
  cooldownUntil?: string;
  failures: number;
  lastError?: { name: string; message: string };
  tokens?: number;
  /** The sliding breaker's window, where it keeps one: calls, failure and slow-call rates (0–1). */
  window?: { calls: number; failureRate: number; slowCallRate: number };
  /** Passed over for now though its circuit admits it: why (`rate-limited`, `over-budget`) and until. */
  skipped?: { reason: string; until?: string; budget?: string };
}

export interface RouterHealth {
  status: HealthStatus;
  /** Keyed by model name; `route/model` when one model name serves several routes. */
  models: Record<string, ModelHealth>;
  /** Routes whose every model is cooling down (the router still serves the others). */
  unavailableRoutes?: string[];
  /** False when the router is a plain ChatModel: it is listed under `models`, assumed up. */
  inspectable?: false;
}

export interface StateStoreHealth {
  status: Exclude<HealthStatus, 'down'>;
  /** True when the store shares state with other replicas right now. */
  shared: boolean;
  type: string;
  [detail: string]: unknown;
}

export interface HealthReport {
  status: HealthStatus;
  routers: Record<string, RouterHealth>;
  stateStore: StateStoreHealth;
  /** Spend against each budget of the module (absent when there are none). */
  budgets?: BudgetStatus[];
  /**
   * Registered models that no router serves (they are called by name, with no breaker of their
   * own): listed so that every registered model is in the report, always available.
   */
  models?: Record<string, ModelHealth>;
}

/** The report of everything a module's registry holds: routers, store, budgets, unrouted models. */
export function registryHealthReport(registry: ModelRouterRegistry): HealthReport {
  const inspections = registry.inspect();
  return buildHealthReport(
    inspections,
    registry.stateStore,
    registry.budgets.report(),
    registry.unroutedModels(inspections),
  );
}

/**
 * `up` when nothing cools down; `degraded` when some models cool down (or a shared store serves
 * from local state) but every router can still serve; `down` when a router has no model left.
 * A half-open model is serving again (probes go through), so it counts as available.
 */
export function buildHealthReport(
  inspections: RouterInspection[],
  store: RouteStateStore,
  budgets: BudgetStatus[] = [],
  unroutedModels: readonly string[] = [],
): HealthReport {
  const routers: Record<string, RouterHealth> = {};
  for (const inspection of inspections) routers[inspection.router] = routerHealth(inspection);
  const stateStore = stateStoreHealth(store);
  const statuses = [...Object.values(routers).map((router) => router.status), stateStore.status];
  const status: HealthStatus = statuses.includes('down')
    ? 'down'
    : statuses.includes('degraded')
      ? 'degraded'
      : 'up';
  const models = Object.fromEntries(
    unroutedModels.map((name): [string, ModelHealth] => [
      name,
      { state: 'available', failures: 0 },
    ]),
  );
  return {
    status,
    routers,
    stateStore,
    ...(budgets.length > 0 ? { budgets } : {}),
    ...(unroutedModels.length > 0 ? { models } : {}),
  };
}

function routerHealth(inspection: RouterInspection): RouterHealth {
  const statuses = inspection.models;
  const nameCounts = new Map<string, number>();
  for (const { model } of statuses) nameCounts.set(model, (nameCounts.get(model) ?? 0) + 1);
  const models: Record<string, ModelHealth> = {};
  for (const status of statuses) {
    const key =
      (nameCounts.get(status.model) ?? 0) > 1 && status.route !== undefined
        ? `${status.route}/${status.model}`
        : status.model;
    models[key] = modelHealth(status);
  }
  // a plain model as a router: listed, and assumed up
  if (!inspection.inspectable) return { status: 'up', models, inspectable: false };
  const cooling = statuses.filter((status) => status.state === 'cooldown');
  const health: RouterHealth = {
    status: cooling.length === 0 ? 'up' : cooling.length === statuses.length ? 'down' : 'degraded',
    models,
  };
  const unavailable = unavailableRoutes(statuses);
  if (health.status === 'degraded' && unavailable.length > 0)
    health.unavailableRoutes = unavailable;
  return health;
}

function modelHealth(status: ModelStatus): ModelHealth {
  const health: ModelHealth = { state: status.state, failures: status.failures };
  if (status.route !== undefined) health.route = status.route;
  if (status.cooldownUntil !== undefined) {
    health.cooldownUntil = new Date(status.cooldownUntil).toISOString();
  }
  if (status.lastError) health.lastError = safeErrorSummary(status.lastError);
  if (status.tokens !== undefined) health.tokens = status.tokens;
  if (status.window) health.window = { ...status.window };
  if (status.skipped) {
    const { reason, until, budget } = status.skipped;
    health.skipped = {
      reason,
      ...(until !== undefined ? { until: new Date(until).toISOString() } : {}),
      ...(budget !== undefined ? { budget } : {}),
    };
  }
  return health;
}

function unavailableRoutes(statuses: ModelStatus[]): string[] {
  const byRoute = new Map<string, ModelStatus[]>();
  for (const status of statuses) {
    if (status.route === undefined) continue;
    byRoute.set(status.route, [...(byRoute.get(status.route) ?? []), status]);
  }
  return [...byRoute]
    .filter(([, models]) => models.every((model) => model.state === 'cooldown'))
    .map(([route]) => route);
}

/** What a store shows of itself: its own `describe()` when it has one (never a password). */
function stateStoreHealth(store: RouteStateStore): StateStoreHealth {
  if (store instanceof InMemoryRouteStateStore) {
    return { status: 'up', shared: false, type: 'in-memory' };
  }
  const shared = typeof store.isShared === 'function' ? store.isShared() : true;
  const described = describe(store);
  return {
    ...described,
    type: typeof described.type === 'string' ? described.type : store.constructor.name,
    shared,
    // a shared store that lost its peers keeps serving from local state: degraded, not down
    status: shared ? 'up' : 'degraded',
  };
}

function describe(store: RouteStateStore): Record<string, unknown> {
  const describeFn = (store as { describe?: () => unknown }).describe;
  if (typeof describeFn !== 'function') return {};
  const description = describeFn.call(store);
  if (typeof description !== 'object' || description === null) return {};
  return Object.fromEntries(
    Object.entries(description).map(([key, value]) => [
      key,
      typeof value === 'string' ? scrubCredentials(value) : value,
    ]),
  );
}
