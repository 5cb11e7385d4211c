import { ModelRouterException } from './exceptions.js';

/** When a budget is only held by calls in progress: about as long as a call takes. */
const HELD_RETRY_MS = 1_000;

/**
 * Every model that could serve the call is over a budget. The gateway answers 429
 * `budget_exceeded` with `Retry-After` until the budget's period ends.
 */
export class BudgetExceededException extends ModelRouterException {
  /**
   * To a group above this one it is a refusal like a provider's 429: fail over, and leave this
   * group alone at least until the budget resets (`retryAfterMs`).
   */
  readonly kind = 'rate-limited' as const;
  readonly budget: string;
  readonly limitUsd: number;
  readonly spentUsd: number;
  /** Epoch ms when the budget's period ends and its spend starts again from 0. */
  readonly resetsAt: number;
  readonly retryAfterMs: number;
  /** What calls in progress hold of the budget (their worst cases), when that is what is missing. */
  readonly reservedUsd?: number;

  constructor(details: {
    budget: string;
    limitUsd: number;
    spentUsd: number;
    reservedUsd?: number;
    resetsAt: number;
    now: number;
    models: string[];
  }) {
    // not spent, but held by calls in progress: room comes back as soon as they settle
    const held = details.spentUsd < details.limitUsd && (details.reservedUsd ?? 0) > 0;
    super(
      held
        ? `Budget '${details.budget}' is held by calls in progress (${details.spentUsd} USD spent ` +
            `and ${details.reservedUsd} reserved of ${details.limitUsd} USD) and no model outside ` +
            `it can serve this call (${details.models.join(', ')}). Retry when they end.`
        : `Budget '${details.budget}' is spent (${details.spentUsd} of ${details.limitUsd} USD) and ` +
            `no model outside it can serve this call (${details.models.join(', ')}); it resets at ` +
            `${new Date(details.resetsAt).toISOString()}. Raise limitUsd or wait for the reset.`,
    );
    this.budget = details.budget;
    this.limitUsd = details.limitUsd;
    this.spentUsd = details.spentUsd;
    this.resetsAt = details.resetsAt;
    if (details.reservedUsd !== undefined) this.reservedUsd = details.reservedUsd;
    const untilReset = Math.max(0, details.resetsAt - details.now);
    this.retryAfterMs = held ? Math.min(HELD_RETRY_MS, untilReset) : untilReset;
  }
}
