import type { RoutingEvent, SkipReason } from '../../core/observability/routing-event.js';
import { ModelRouterEvent } from './model-router-event-payloads.js';

/**
 * Events about money and limits. Kept apart from MODEL_ROUTER_EVENTS, whose names are the
 * public contract of the seed; listen with `@OnEvent(MODEL_ROUTER_COST_EVENTS.BUDGET_WARNING)`.
 */
export const MODEL_ROUTER_COST_EVENTS = {
  /** A priced model answered: what that attempt cost. */
  MODEL_COST: 'model-router.model.cost',
  /** A model was passed over for a call (rate-limited, over-budget, context). */
  MODEL_SKIPPED: 'model-router.model.skipped',
  /** A budget reached its `warnAt` share (once per period). */
  BUDGET_WARNING: 'model-router.budget.warning',
  /** A budget reached its limit (once per period); its models are skipped until it resets. */
  BUDGET_EXCEEDED: 'model-router.budget.exceeded',
  /** A spent budget sent a call to its `fallback` instead of refusing it. */
  BUDGET_DOWNGRADED: 'model-router.budget.downgraded',
} as const;

export type ModelRouterCostEventName =
  (typeof MODEL_ROUTER_COST_EVENTS)[keyof typeof MODEL_ROUTER_COST_EVENTS];

type Fields<T> = Omit<{ [K in keyof T]: T[K] }, 'timestamp'>;

export class ModelCostEvent extends ModelRouterEvent {
  readonly route?: string;
  readonly model!: string;
  readonly attempt!: number;
  readonly costUsd!: number;

  constructor(fields: Fields<ModelCostEvent>) {
    super();
    Object.assign(this, fields);
  }
}

export class ModelSkippedEvent extends ModelRouterEvent {
  readonly route?: string;
  readonly model!: string;
  readonly reason!: SkipReason;
  /** ISO time the reason ends (a minute's window, a budget's period). */
  readonly until?: string;
  readonly budget?: string;

  constructor(fields: Fields<ModelSkippedEvent>) {
    super();
    Object.assign(this, fields);
  }
}

export class BudgetEvent extends ModelRouterEvent {
  readonly budget!: string;
  readonly spentUsd!: number;
  readonly limitUsd!: number;
  /** ISO time the period ends and spend starts from 0. */
  readonly resetsAt!: string;

  constructor(fields: Fields<BudgetEvent>) {
    super();
    Object.assign(this, fields);
  }
}

export class BudgetDowngradedEvent extends ModelRouterEvent {
  readonly budget!: string;
  /** The router or model the call addressed. */
  readonly from?: string;
  /** The fallback that serves it instead. */
  readonly to!: string;

  constructor(fields: Fields<BudgetDowngradedEvent>) {
    super();
    Object.assign(this, fields);
  }
}

/** The Nest event of a cost, limit or budget routing event; undefined for the others. */
export function mapCostEvent(
  event: RoutingEvent,
  router: string,
): { name: ModelRouterCostEventName; payload: ModelRouterEvent } | undefined {
  switch (event.type) {
    case 'model-succeeded':
      if (event.costUsd === undefined) return undefined;
      return {
        name: MODEL_ROUTER_COST_EVENTS.MODEL_COST,
        payload: new ModelCostEvent(
          compact({
            router,
            route: event.route,
            model: event.model,
            attempt: event.attempt,
            costUsd: event.costUsd,
          }),
        ),
      };
    case 'model-skipped':
      return {
        name: MODEL_ROUTER_COST_EVENTS.MODEL_SKIPPED,
        payload: new ModelSkippedEvent(
          compact({
            router,
            route: event.route,
            model: event.model,
            reason: event.reason,
            until: event.until !== undefined ? new Date(event.until).toISOString() : undefined,
            budget: event.budget,
          }),
        ),
      };
    case 'budget-warning':
    case 'budget-exceeded':
      return {
        name:
          event.type === 'budget-warning'
            ? MODEL_ROUTER_COST_EVENTS.BUDGET_WARNING
            : MODEL_ROUTER_COST_EVENTS.BUDGET_EXCEEDED,
        payload: new BudgetEvent({
          router,
          budget: event.budget,
          spentUsd: event.spentUsd,
          limitUsd: event.limitUsd,
          resetsAt: new Date(event.resetsAt).toISOString(),
        }),
      };
    case 'budget-downgraded':
      return {
        name: MODEL_ROUTER_COST_EVENTS.BUDGET_DOWNGRADED,
        payload: new BudgetDowngradedEvent(
          compact({ router, budget: event.budget, from: event.from, to: event.to }),
        ),
      };
    default:
      return undefined;
  }
}

function compact<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}
