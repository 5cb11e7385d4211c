import { ModelRouterException } from './exceptions.js';

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

  constructor(details: {
    budget: string;
    limitUsd: number;
    spentUsd: number;
    resetsAt: number;
    now: number;
    models: string[];
  }) {
    super(
      `Budget '${details.budget}' is spent (${details.spentUsd} of ${details.limitUsd} USD) and ` +
        `no model outside it can serve this call (${details.models.join(', ')}); it resets at ` +
        `${new Date(details.resetsAt).toISOString()}. Raise limitUsd or wait for the reset.`,
    );
    this.budget = details.budget;
    this.limitUsd = details.limitUsd;
    this.spentUsd = details.spentUsd;
    this.resetsAt = details.resetsAt;
    this.retryAfterMs = Math.max(0, details.resetsAt - details.now);
  }
}
