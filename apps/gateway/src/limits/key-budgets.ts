import {
  BUDGET_DIMENSIONS,
  type BudgetDefinition,
  BudgetLedger,
  type BudgetStatus,
} from 'nest-model-router/core';
import { BudgetExceededException, type ChatResponse, type Clock } from 'nest-model-router';
import type { AuthConfig } from '../config/gateway-sections.js';

/** The call attribute that carries the caller's key name into the library's budget scopes. */
export const KEY_ATTRIBUTE = BUDGET_DIMENSIONS.key;

/** The library budget behind a key's `budget`. */
export function keyBudgetName(key: string): string {
  return `key:${key}`;
}

/**
 * Per-key spend on the library's budgets (no second budget system): each key's `budget`
 * becomes a budget scoped `{ key }` in the module's ledger, so groups skip their models once a
 * key has spent it (429 `budget_exceeded`) and charge it with every answer's cost, on the
 * module's state store (shared through Redis). A chat call that addresses a model directly (a
 * registered model, `provider/model-id`, a `models` list) is checked and charged by the library
 * too (RoutingChatService; a list's group is given the ledger); an embeddings call is only
 * checked here, before it, since embedding models have no pricing.
 */
export class KeyBudgets {
  readonly ledger: BudgetLedger;
  private costOf: (model: string, response: ChatResponse) => number | undefined = () => undefined;

  constructor(
    auth: AuthConfig | undefined,
    given: BudgetDefinition[] | BudgetLedger | undefined,
    private readonly clock: Clock = Date.now,
  ) {
    const configured = given instanceof BudgetLedger ? [...given.budgets] : (given ?? []);
    const perKey = (auth?.keys ?? []).flatMap((key): BudgetDefinition[] =>
      key.budget
        ? [
            {
              name: keyBudgetName(key.name),
              scope: { key: key.name },
              limitUsd: key.budget.limitUsd,
              period: key.budget.period,
              ...(key.budget.fallback !== undefined ? { fallback: key.budget.fallback } : {}),
            },
          ]
        : [],
    );
    this.ledger =
      perKey.length === 0 && given instanceof BudgetLedger
        ? given
        : new BudgetLedger([...configured, ...perKey], { clock });
  }

  /** How an answer's cost is priced for its usage fields (the resolver knows the models). */
  priceWith(costOf: (model: string, response: ChatResponse) => number | undefined): void {
    this.costOf = costOf;
  }

  /** Before an embeddings call: 429 `budget_exceeded` when a budget over the key and model is spent. */
  assertWithin(key: string, model: string): void {
    const over = this.ledger.exceeded({ key, model });
    if (!over) return;
    throw new BudgetExceededException({
      budget: over.budget.name,
      limitUsd: over.budget.limitUsd,
      spentUsd: over.spentUsd,
      resetsAt: over.resetsAt,
      now: this.clock(),
      models: [model],
    });
  }

  /** What an answer of `model` cost: the group's price on it, else the model's pricing. */
  priceOf(model: string | undefined, response: ChatResponse): number | undefined {
    return model === undefined ? undefined : this.costOf(model, response);
  }

  /** A key's budget as `GET /v1/key` shows it: spend so far and when it resets. */
  status(key: string): BudgetStatus | undefined {
    return this.ledger.report().find((budget) => budget.name === keyBudgetName(key));
  }
}
