import { systemClock, type Clock } from '../clock.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import { toNanoUsd } from '../cost/cost.js';
import { emitTo, type RoutingEvent, type RoutingObserver } from '../observability/routing-event.js';
import { countersOf, windowEnd, type CounterWindow } from '../state/counter-store.js';
import { InMemoryRouteStateStore } from '../state/in-memory-route-state-store.js';
import { attempt, chain, type MaybePromise } from '../state/maybe-async.js';
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
  /**
   * Output tokens a call is assumed to produce when reserving its worst case, if neither the
   * request (`maxOutputTokens`) nor the model's profile says; default 4096.
   */
  reserveOutputTokens?: number;
}

/** Output tokens a call is assumed to ask for when neither it nor its model says (its worst case). */
export const DEFAULT_RESERVE_OUTPUT_TOKENS = 4096;

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
  /** What calls in progress hold of the budget (their worst cases, not settled yet). */
  reservedUsd?: number;
}

/** A call's worst case, held against every budget over its scope until the call settles. */
export interface BudgetReservation {
  readonly scope: BudgetScope;
  readonly holds: readonly BudgetHold[];
}

interface BudgetHold {
  readonly budget: BudgetDefinition;
  /** The period the hold was taken in: a settle after the period ended goes to that one. */
  readonly window: CounterWindow;
  readonly nano: number;
}

/** What `reserve` answers: the reservation, or the budget that had no room for it. */
export type ReserveOutcome =
  | { readonly reservation: BudgetReservation; readonly refused?: undefined }
  | { readonly reservation?: undefined; readonly refused: SpentBudget };

/**
 * Spend against budgets. Spend is counted in whole nano-dollars in windowed counters of the
 * state store, added atomically, so replicas sharing Redis add up exactly and a period's spend
 * vanishes when the period ends. Each budget has two counters per period: what was spent, and
 * what is committed (spent plus the worst cases that calls in progress reserved). A call
 * reserves before it runs, in one atomic add per budget that is refused once the committed
 * total has reached the limit, and settles to its real cost after; so under any concurrency,
 * on one replica or many, spend passes a limit by at most one call's worst case. Checks read
 * the local view (no network on the hot path); a replica sees other replicas' spend when the
 * store refreshes it.
 */
export class BudgetLedger {
  readonly budgets: readonly BudgetDefinition[];
  /** Output tokens assumed for a call's worst case when neither request nor model says. */
  readonly reserveOutputTokens: number;
  private store: RouteStateStore;
  private clock: Clock;
  private readonly explicit: { store: boolean; clock: boolean };
  private readonly listeners = new Set<RoutingObserver>();

  constructor(budgets: BudgetDefinition[], options: BudgetLedgerOptions = {}) {
    this.budgets = Object.freeze(validateBudgets(budgets));
    const cap = options.reserveOutputTokens ?? DEFAULT_RESERVE_OUTPUT_TOKENS;
    if (!Number.isInteger(cap) || cap < 1) {
      throw new InvalidConfigurationException(
        `reserveOutputTokens must be a whole number of tokens ≥ 1; got ${String(cap)}.`,
      );
    }
    this.reserveOutputTokens = cap;
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

  /**
   * The first budget this call scope is over (spent, or held by calls in progress), if any.
   * `waived`: budgets the call was downgraded by, which no longer refuse it.
   */
  exceeded(call: BudgetScope, waived?: ReadonlySet<string>): SpentBudget | undefined {
    const now = this.clock();
    for (const budget of this.budgets) {
      if (!matches(budget, call) || isWaived(budget, waived)) continue;
      const committed = this.committed(budget, now);
      if (committed >= toNanoUsd(budget.limitUsd)) return this.spentBudget(budget, now, committed);
    }
    return undefined;
  }

  /**
   * Holds `worstCaseUsd` against every budget over the call's scope, before the call runs. Each
   * hold is one atomic add, refused when the budget's committed total has already reached its
   * limit (so a call larger than what is left may still take the last of it, alone). When one
   * budget refuses, the holds already taken are given back and the answer names that budget.
   * A `waived` budget (the call was downgraded by it) is held without a limit: it counts the
   * call's spend, and never refuses it.
   */
  reserve(
    call: BudgetScope,
    worstCaseUsd: number,
    waived?: ReadonlySet<string>,
  ): MaybePromise<ReserveOutcome> {
    const nano = Math.max(0, toNanoUsd(worstCaseUsd));
    const now = this.clock();
    const matching = this.budgets.filter((budget) => matches(budget, call));
    if (matching.length === 0 || nano === 0) return { reservation: { scope: call, holds: [] } };
    const counters = countersOf(this.store);
    const adds = matching.map((budget) => {
      const window = this.window(budget, now);
      // refused when the committed total is at the limit already: total + nano > limit - 1 + nano
      const limit = isWaived(budget, waived) ? undefined : toNanoUsd(budget.limitUsd) - 1 + nano;
      const capped = limit === undefined ? window : { ...window, limit };
      return chain(counters.addToWindow(this.key(budget), nano, capped), (added) => ({
        hold: { budget, window, nano },
        added,
      }));
    });
    return chain(allOf(adds), (results) => {
      const refused = results.find(({ added }) => !added.ok);
      const holds = results.filter(({ added }) => added.ok).map(({ hold }) => hold);
      if (!refused) return { reservation: { scope: call, holds } };
      this.giveBack(holds);
      const { budget } = refused.hold;
      return { refused: this.spentBudget(budget, now, refused.added.total) };
    });
  }

  /**
   * Ends a reservation: its holds are replaced by the call's real cost (spent, and crossing
   * `warnAt` or the limit fires its event), or given back whole when `costUsd` is undefined
   * (the call used nothing, or its cost is unknown). Not awaited by callers: the answer never
   * waits for a shared store.
   */
  settle(
    reservation: BudgetReservation,
    costUsd: number | undefined,
    observer?: RoutingObserver,
  ): MaybePromise<void> {
    const nano = costUsd === undefined ? 0 : Math.max(0, toNanoUsd(costUsd));
    if (nano === 0) {
      this.giveBack(reservation.holds);
      return undefined;
    }
    const counters = countersOf(this.store);
    const adds: MaybePromise<unknown>[] = [];
    for (const hold of reservation.holds) {
      adds.push(
        quiet(() => counters.addToWindow(this.key(hold.budget), nano - hold.nano, hold.window)),
      );
      adds.push(this.addSpent(hold.budget, nano, hold.window, observer));
    }
    return settleAll(adds);
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
    const adds: MaybePromise<unknown>[] = [];
    for (const budget of this.budgets) {
      if (!matches(budget, call)) continue;
      const window = this.window(budget, now);
      adds.push(counters.addToWindow(this.key(budget), nano, window));
      adds.push(this.addSpent(budget, nano, window, observer));
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

  /** A budget's spend, and what calls in progress hold of it. */
  statusOf(name: string): SpentBudget | undefined {
    const budget = this.budgets.find((b) => b.name === name);
    if (!budget) return undefined;
    const now = this.clock();
    return this.spentBudget(budget, now, this.committed(budget, now));
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
    return countersOf(this.store).getWindow(this.spentKey(budget), this.window(budget, now)) / 1e9;
  }

  private committed(budget: BudgetDefinition, now: number): number {
    return countersOf(this.store).getWindow(this.key(budget), this.window(budget, now));
  }

  private spentBudget(budget: BudgetDefinition, now: number, committedNano: number): SpentBudget {
    const spentUsd = this.spent(budget, now);
    const reservedUsd = Math.max(0, committedNano / 1e9 - spentUsd);
    return {
      budget,
      spentUsd,
      resetsAt: windowEnd(this.window(budget, now)),
      ...(reservedUsd > 0 ? { reservedUsd: Math.round(reservedUsd * 1e9) / 1e9 } : {}),
    };
  }

  /** Adds real spend; the add that crosses `warnAt` or the limit fires its event. */
  private addSpent(
    budget: BudgetDefinition,
    nano: number,
    window: CounterWindow,
    observer: RoutingObserver | undefined,
  ): MaybePromise<void> {
    return quiet(() =>
      chain(countersOf(this.store).addToWindow(this.spentKey(budget), nano, window), ({ total }) =>
        this.crossed(budget, total - nano, total, windowEnd(window), observer),
      ),
    );
  }

  private giveBack(holds: readonly BudgetHold[]): void {
    const counters = countersOf(this.store);
    for (const hold of holds) {
      void quiet(() => counters.addToWindow(this.key(hold.budget), -hold.nano, hold.window));
    }
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

  /** Committed: spent plus what calls in progress hold. */
  private key(budget: BudgetDefinition): string {
    return `budget:${budget.name}`;
  }

  private spentKey(budget: BudgetDefinition): string {
    return `budget:${budget.name}:spent`;
  }
}

/**
 * A budget the call was downgraded by no longer refuses it, except for the models it names: a
 * fallback that contains the spent model must not reach it again through the waiver.
 */
function isWaived(budget: BudgetDefinition, waived: ReadonlySet<string> | undefined): boolean {
  return waived !== undefined && waived.has(budget.name) && budget.scope?.model === undefined;
}

function allOf<T>(values: MaybePromise<T>[]): MaybePromise<T[]> {
  return values.some((value) => value instanceof Promise) ? Promise.all(values) : (values as T[]);
}

function settleAll(adds: MaybePromise<unknown>[]): MaybePromise<void> {
  const pending = adds.filter((add) => add instanceof Promise);
  return pending.length === 0 ? undefined : Promise.all(pending).then(() => undefined);
}

/** A counter add that never throws nor rejects: a lost add is the store's outage to heal. */
function quiet<T>(work: () => MaybePromise<T>): MaybePromise<T | undefined> {
  return attempt<T | undefined>(work, () => undefined);
}
