import { InvalidConfigurationException } from '../errors/exceptions.js';

export const BUDGET_PERIODS = {
  '1h': 3_600_000,
  '1d': 86_400_000,
  '7d': 604_800_000,
  '30d': 2_592_000_000,
} as const;
export type BudgetPeriod = keyof typeof BUDGET_PERIODS;

/**
 * What a budget can be scoped by, and where a call's value of each comes from. A scope names
 * any subset; a call matches when every named field equals the call's. Adding a dimension (the
 * gateway's API `key`) is one entry here and one attribute set by whoever knows it.
 */
export const BUDGET_DIMENSIONS = {
  /** Set by RoutingChatService (`ROUTER_ATTRIBUTE`). */
  router: 'model_router',
  /** The route a RoutingChatModel chose (`ROUTE_ATTRIBUTE`). */
  route: 'chat_model_route',
  /** The group's model itself (no attribute: the model being considered). */
  model: undefined,
  /** The caller's API key, by name: set by an app that authenticates (the demo gateway). */
  key: 'model_router_key',
} as const;
export type BudgetDimension = keyof typeof BUDGET_DIMENSIONS;
export type BudgetScope = Partial<Record<BudgetDimension, string>>;

export interface BudgetDefinition {
  /** Unique; names the budget in events, errors and health. */
  name: string;
  /** Which calls it counts and caps; empty or absent: every call. */
  scope?: BudgetScope;
  limitUsd: number;
  /** Spend resets when a period ends (fixed periods from the Unix epoch, UTC). */
  period: BudgetPeriod;
  /** Share of the limit (0–1) at which a `budget-warning` event fires, once per period. */
  warnAt?: number;
  /**
   * A router or model name: once the budget is exhausted, calls it refuses go there instead of
   * failing with 429, under that target's own budgets, limits and capabilities.
   */
  fallback?: string;
}

/** Checks budgets once, at start-up, naming the budget and field at fault. */
export function validateBudgets(budgets: unknown, where = 'budgets'): BudgetDefinition[] {
  if (budgets === undefined) return [];
  if (!Array.isArray(budgets)) {
    throw new InvalidConfigurationException(
      `${where} must be a list of { name, scope?, limitUsd, period, warnAt?, fallback? }.`,
    );
  }
  const names = new Set<string>();
  return budgets.map((raw: unknown, index) => {
    const at = `${where}[${index}]`;
    if (typeof raw !== 'object' || raw === null) {
      throw new InvalidConfigurationException(
        `${at} must be { name, scope?, limitUsd, period, warnAt?, fallback? }.`,
      );
    }
    const budget = raw as Record<string, unknown>;
    if (typeof budget.name !== 'string' || budget.name.trim() === '') {
      throw new InvalidConfigurationException(`${at}.name must be a non-blank string.`);
    }
    if (names.has(budget.name)) {
      throw new InvalidConfigurationException(
        `${at}.name: more than one budget named '${budget.name}'.`,
      );
    }
    names.add(budget.name);
    for (const key of Object.keys(budget)) {
      if (!['name', 'scope', 'limitUsd', 'period', 'warnAt', 'fallback'].includes(key)) {
        throw new InvalidConfigurationException(
          `${at}.${key}: unknown setting; known: name, scope, limitUsd, period, warnAt, fallback.`,
        );
      }
    }
    if (typeof budget.limitUsd !== 'number' || !(budget.limitUsd > 0)) {
      throw new InvalidConfigurationException(
        `${at}.limitUsd must be a positive number of USD; got ${String(budget.limitUsd)}.`,
      );
    }
    if (typeof budget.period !== 'string' || !(budget.period in BUDGET_PERIODS)) {
      throw new InvalidConfigurationException(
        `${at}.period must be one of ${Object.keys(BUDGET_PERIODS).join(', ')}; got ${String(budget.period)}.`,
      );
    }
    if (
      budget.warnAt !== undefined &&
      !(typeof budget.warnAt === 'number' && budget.warnAt > 0 && budget.warnAt < 1)
    ) {
      throw new InvalidConfigurationException(
        `${at}.warnAt must be a share of the limit between 0 and 1 (e.g. 0.8); got ${String(budget.warnAt)}.`,
      );
    }
    if (
      budget.fallback !== undefined &&
      (typeof budget.fallback !== 'string' || budget.fallback.trim() === '')
    ) {
      throw new InvalidConfigurationException(
        `${at}.fallback must be the name of a router or model; got ${String(budget.fallback)}.`,
      );
    }
    if (budget.scope !== undefined) {
      if (typeof budget.scope !== 'object' || budget.scope === null) {
        throw new InvalidConfigurationException(
          `${at}.scope must be { router?, route?, model?, key? }.`,
        );
      }
      for (const [key, value] of Object.entries(budget.scope)) {
        if (!(key in BUDGET_DIMENSIONS)) {
          throw new InvalidConfigurationException(
            `${at}.scope.${key}: unknown scope; known: ${Object.keys(BUDGET_DIMENSIONS).join(', ')}.`,
          );
        }
        if (typeof value !== 'string' || value === '') {
          throw new InvalidConfigurationException(`${at}.scope.${key} must be a name.`);
        }
      }
    }
    return budget as unknown as BudgetDefinition;
  });
}

/** The call's value of each dimension. */
export function callScopeOf(
  attributes: Readonly<Record<string, unknown>>,
  route: string | undefined,
  model: string,
): BudgetScope {
  const scope: BudgetScope = { model };
  for (const [dimension, attribute] of Object.entries(BUDGET_DIMENSIONS)) {
    if (attribute === undefined) continue;
    const value = attributes[attribute];
    if (typeof value === 'string') scope[dimension as BudgetDimension] = value;
  }
  if (route !== undefined) scope.route = route;
  return scope;
}

export function matches(budget: BudgetDefinition, call: BudgetScope): boolean {
  for (const [dimension, value] of Object.entries(budget.scope ?? {})) {
    if (call[dimension as BudgetDimension] !== value) return false;
  }
  return true;
}
