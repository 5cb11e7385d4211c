import { systemClock, type Clock } from '../clock.js';
import { toNanoUsd } from '../cost/cost.js';
import { emitTo, type RoutingEvent, type RoutingObserver } from '../observability/routing-event.js';
import { countersOf, windowEnd, type CounterWindow } from '../state/counter-store.js';
import { InMemoryRouteStateStore } from '../state/in-memory-route-state-store.js';
import { chain, type MaybePromise } from '../state/maybe-async.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import {
  BUDGET_PERIODS,
  matches,
  validateBudgets,
  type BudgetDefinition,
  type BudgetScope,
} from './budget.js';

export interface BudgetLedgerOptions {
  /** Where spend is counted; default in-memory, or the Nest module's store (shared by replicas). */
  store?: RouteStateStore;
  clock?: Clock;
}

/** A budget as health shows it. */
export interface BudgetStatus {
  name: string;
  scope: BudgetScope;
  period: BudgetDefinition['period'];
  limitUsd: number;
  spentUsd: number;
  /** ISO time the period ends. */
  resetsAt: string;
  state: 'ok' | 'warning' | 'exceeded';
}

export interface SpentBudget {
  budget: BudgetDefinition;
  spentUsd: number;
  resetsAt: number;
}

/**
 * Spend against budgets. Spend is counted in whole nano-dollars in windowed counters of the
 * state store (one per budget and period), added atomically, so replicas sharing Redis add up
 * exactly and a period's spend vanishes when the period ends. Checks read the local view (no
 * network on the hot path); a replica sees other replicas' spend when the store refreshes it.
 */
export class BudgetLedger {
  readonly budgets: readonly BudgetDefinition[];
  private store: RouteStateStore;
  private clock: Clock;
  private readonly explicit: { store: boolean; clock: boolean };
  private readonly listeners = new Set<RoutingObserver>();

  constructor(budgets: BudgetDefinition[], options: BudgetLedgerOptions = {}) {
    this.budgets = Object.freeze(validateBudgets(budgets));
    this.clock = options.clock ?? systemClock;
    this.store = options.store ?? new InMemoryRouteStateStore(this.clock);
    this.explicit = { store: options.store !== undefined, clock: options.clock !== undefined };
  }

  get size(): number {
    return this.budgets.length;
  }

  /** Takes the module's store and clock, unless built with its own. */
  bindRouteState(binding: { store: RouteStateStore; clock?: Clock }): void {
    if (!this.explicit.store) this.store = binding.store;
    if (!this.explicit.clock && binding.clock) this.clock = binding.clock;
  }

  /** The first budget this call scope is over, if any. */
  exceeded(call: BudgetScope): SpentBudget | undefined {
    const now = this.clock();
    for (const budget of this.budgets) {
      if (!matches(budget, call)) continue;
      const spentUsd = this.spent(budget, now);
      if (spentUsd >= budget.limitUsd) {
        return { budget, spentUsd, resetsAt: windowEnd(this.window(budget, now)) };
      }
    }
    return undefined;
  }

  /**
   * Adds a call's cost to every budget it falls under. Crossing `warnAt` or the limit is seen by
   * exactly one add (the counter's add is atomic and returns the new total), so each event fires
   * once per period across all replicas.
   */
  charge(call: BudgetScope, costUsd: number, observer?: RoutingObserver): MaybePromise<void> {
    const nano = toNanoUsd(costUsd);
    if (!(nano > 0)) return undefined;
    const now = this.clock();
    const counters = countersOf(this.store);
    const adds: MaybePromise<void>[] = [];
    for (const budget of this.budgets) {
      if (!matches(budget, call)) continue;
      const window = this.window(budget, now);
      adds.push(
        chain(counters.addToWindow(this.key(budget), nano, window), ({ total }) =>
          this.crossed(budget, total - nano, total, windowEnd(window), observer),
        ),
      );
    }
    const pending = adds.filter((add) => add instanceof Promise);
    return pending.length === 0 ? undefined : Promise.all(pending).then(() => undefined);
  }

  report(): BudgetStatus[] {
    const now = this.clock();
    return this.budgets.map((budget) => {
      const spentUsd = this.spent(budget, now);
      const warn = budget.warnAt !== undefined && spentUsd >= budget.warnAt * budget.limitUsd;
      return {
        name: budget.name,
        scope: { ...budget.scope },
        period: budget.period,
        limitUsd: budget.limitUsd,
        spentUsd,
        resetsAt: new Date(windowEnd(this.window(budget, now))).toISOString(),
        state: spentUsd >= budget.limitUsd ? 'exceeded' : warn ? 'warning' : 'ok',
      };
    });
  }

  spentUsd(name: string): number {
    const budget = this.budgets.find((b) => b.name === name);
    return budget ? this.spent(budget, this.clock()) : 0;
  }

  /** Budget events noticed without a call's observer. */
  onEvent(listener: RoutingObserver): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private spent(budget: BudgetDefinition, now: number): number {
    return countersOf(this.store).getWindow(this.key(budget), this.window(budget, now)) / 1e9;
  }

  private crossed(
    budget: BudgetDefinition,
    beforeNano: number,
    afterNano: number,
    resetsAt: number,
    observer: RoutingObserver | undefined,
  ): void {
    const limit = toNanoUsd(budget.limitUsd);
    const base = {
      budget: budget.name,
      spentUsd: afterNano / 1e9,
      limitUsd: budget.limitUsd,
      resetsAt,
    };
    if (budget.warnAt !== undefined) {
      const warn = Math.round(limit * budget.warnAt);
      if (beforeNano < warn && afterNano >= warn)
        this.deliver({ type: 'budget-warning', ...base }, observer);
    }
    if (beforeNano < limit && afterNano >= limit)
      this.deliver({ type: 'budget-exceeded', ...base }, observer);
  }

  private deliver(event: RoutingEvent, observer: RoutingObserver | undefined): void {
    if (observer) {
      emitTo(observer, event);
      return;
    }
    for (const listener of this.listeners) emitTo(listener, event);
  }

  private window(budget: BudgetDefinition, now: number): CounterWindow {
    return { windowMs: BUDGET_PERIODS[budget.period], now };
  }

  private key(budget: BudgetDefinition): string {
    return `budget:${budget.name}`;
  }
}
