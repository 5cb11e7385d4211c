import { attributeKey, type Attributes } from '../chat/attribute-key.js';
import type { ChatCallOptions, ChatModel, ChatStreamEvent } from '../chat/chat-model.js';
import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import { streamModel } from '../chat/stream.js';
import { systemClock, type Clock } from '../clock.js';
import { BudgetExceededException } from '../errors/budget-exceeded.exception.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import { emitTo } from '../observability/routing-event.js';
import { requiredCapabilities, supportsAll } from '../chat/capability.js';
import type { BudgetDefinition } from './budget.js';
import type { BudgetLedger } from './budget-ledger.js';

/**
 * The call attribute listing the budgets a call was downgraded by, in order. Those budgets no
 * longer refuse the call (it is already on their fallback); they still count what it spends.
 */
export const DOWNGRADED_ATTRIBUTE = 'model_router_downgraded';
const isNames = (value: unknown): value is readonly string[] =>
  Array.isArray(value) && value.every((name) => typeof name === 'string');
export const downgradedAttribute = attributeKey(DOWNGRADED_ATTRIBUTE, isNames);

/** The budgets this call was downgraded by (none: undefined). */
export function waivedBudgetsOf(
  attributes: Attributes | undefined,
): ReadonlySet<string> | undefined {
  const names = downgradedAttribute.of(attributes);
  return names && names.length > 0 ? new Set(names) : undefined;
}

/** Where a fallback name leads: the model to call, and the attributes it is called with. */
export interface DowngradeTarget {
  readonly model: ChatModel;
  /** The call's attributes as the target sees them (e.g. its router's name). */
  readonly attributes?: (attributes: Record<string, unknown>) => Record<string, unknown>;
}

/** How often one budget sent calls to its fallback (what a status page shows). */
export interface DowngradeStatus {
  budget: string;
  to: string;
  count: number;
  /** Epoch ms of the latest downgrade. */
  lastAt: number;
}

/**
 * Budget downgrades: a call that a budget with a `fallback` refused (BudgetExceededException)
 * is sent to that fallback instead, once per budget, with the budget waived for it; the
 * fallback's own budgets, limits and capabilities still apply, so a downgrade never escapes
 * another budget, and when nothing is left the fallback's own refusal is the answer.
 */
export class BudgetDowngrades {
  /** Whether any budget names a fallback (otherwise `wrap` returns its model as it is). */
  readonly active: boolean;
  private readonly counts = new Map<string, DowngradeStatus>();

  constructor(
    private readonly ledger: BudgetLedger,
    private readonly resolve: (name: string) => DowngradeTarget | undefined,
    private readonly clock: Clock = systemClock,
  ) {
    // a ledger's budgets are fixed at construction
    this.active = ledger.budgets.some((budget) => budget.fallback !== undefined);
  }

  /** `model` (called `name`), sending what a budget refuses to that budget's fallback. */
  wrap(model: ChatModel, name?: string): ChatModel {
    return this.active ? new DowngradingChatModel(model, this, name) : model;
  }

  /** Each budget's downgrades since start (this replica's). */
  report(): DowngradeStatus[] {
    return [...this.counts.values()].map((status) => ({ ...status }));
  }

  /** @internal where a refused call goes next, with its options; undefined: nowhere. */
  downgrade(
    error: unknown,
    request: ChatRequest,
    options: ChatCallOptions | undefined,
    from: string | undefined,
  ): { model: ChatModel; options: ChatCallOptions } | undefined {
    if (!(error instanceof BudgetExceededException)) return undefined;
    const budget = this.ledger.budgets.find((candidate) => candidate.name === error.budget);
    const waived = downgradedAttribute.of(options?.attributes) ?? [];
    if (!budget?.fallback || waived.includes(budget.name)) return undefined;
    const target = this.resolve(budget.fallback);
    // a fallback that cannot honour the request is no answer: the refusal stands
    if (!target || !supportsAll(target.model, requiredCapabilities(request))) return undefined;
    const attributes = {
      ...options?.attributes,
      ...downgradedAttribute.entry([...waived, budget.name]),
    };
    this.count(budget.name, budget.fallback);
    emitTo(options?.observer, {
      type: 'budget-downgraded',
      budget: budget.name,
      ...(from !== undefined ? { from } : {}),
      to: budget.fallback,
    });
    return {
      model: this.wrap(target.model, budget.fallback),
      options: { ...options, attributes: target.attributes?.(attributes) ?? attributes },
    };
  }

  private count(budget: string, to: string): void {
    const status = this.counts.get(budget) ?? { budget, to, count: 0, lastAt: 0 };
    status.count += 1;
    status.lastAt = this.clock();
    this.counts.set(budget, status);
  }
}

/** A model whose budget refusals go to the budget's fallback (before any output, for streams). */
class DowngradingChatModel implements ChatModel {
  readonly checksChatRequests?: true;

  constructor(
    private readonly inner: ChatModel,
    private readonly downgrades: BudgetDowngrades,
    private readonly name: string | undefined,
  ) {
    if ((inner as { checksChatRequests?: unknown }).checksChatRequests === true) {
      this.checksChatRequests = true;
    }
  }

  async chat(request: ChatRequest, options?: ChatCallOptions): Promise<ChatResponse> {
    try {
      return await this.inner.chat(request, options);
    } catch (error) {
      const next = this.downgrades.downgrade(error, request, options, this.name);
      if (!next) throw error;
      return next.model.chat(request, next.options);
    }
  }

  async *stream(request: ChatRequest, options?: ChatCallOptions): AsyncGenerator<ChatStreamEvent> {
    let started = false;
    try {
      for await (const event of streamModel(this.inner, request, options)) {
        started = true;
        yield event;
      }
    } catch (error) {
      // a budget refuses before the first byte; after it, the answer is this model's
      const next = started
        ? undefined
        : this.downgrades.downgrade(error, request, options, this.name);
      if (!next) throw error;
      yield* streamModel(next.model, request, next.options);
    }
  }

  supportedCapabilities() {
    return this.inner.supportedCapabilities?.() ?? new Set();
  }

  defaultRequestParameters() {
    return this.inner.defaultRequestParameters?.() ?? {};
  }
}

/**
 * Checks at start that every budget's fallback names a router or model that exists, is not the
 * budget's own scope, and that fallbacks do not lead back to where they started.
 */
export function checkBudgetFallbacks(
  budgets: readonly BudgetDefinition[],
  known: (name: string) => boolean,
  where = 'budgets',
): void {
  const next = new Map<string, string[]>();
  budgets.forEach((budget, index) => {
    const fallback = budget.fallback;
    if (fallback === undefined) return;
    const at = `${where}[${index}].fallback`;
    if (!known(fallback)) {
      throw new InvalidConfigurationException(
        `${at}: '${fallback}' is neither a router nor a model; name one that is configured.`,
      );
    }
    for (const from of [budget.scope?.router, budget.scope?.model, budget.scope?.route]) {
      if (from === undefined) continue;
      if (from === fallback) {
        throw new InvalidConfigurationException(
          `${at}: '${fallback}' is the budget's own scope, so its calls would be refused again.`,
        );
      }
      next.set(from, [...(next.get(from) ?? []), fallback]);
    }
  });
  for (const start of next.keys()) {
    const path = cycleFrom(start, next);
    if (path) {
      throw new InvalidConfigurationException(
        `${where}: budget fallbacks form a cycle (${path.join(' → ')}); end the chain at a target no fallback budget covers.`,
      );
    }
  }
}

function cycleFrom(start: string, next: ReadonlyMap<string, string[]>): string[] | undefined {
  const walk = (node: string, path: string[]): string[] | undefined => {
    for (const to of next.get(node) ?? []) {
      if (to === start) return [...path, to];
      if (path.includes(to)) continue;
      const found = walk(to, [...path, to]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}
