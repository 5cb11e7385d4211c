import type { ChatModel } from '../chat/chat-model.js';
import type { Clock } from '../clock.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import type { ErrorSummary, SkipReason } from '../observability/routing-event.js';
import type { BudgetLedger } from '../budget/budget-ledger.js';

/** How health shows a model: `cooldown` while its circuit is open, `half-open` while probed. */
export type ModelAvailability = 'available' | 'cooldown' | 'half-open';

export interface ModelStatus {
  model: string;
  /** The route of a RoutingChatModel that the model serves, when there is one. */
  route?: string;
  state: ModelAvailability;
  /** Epoch ms. */
  cooldownUntil?: number;
  failures: number;
  lastError?: ErrorSummary;
  /** Accumulated token usage, where the strategy tracks it. */
  tokens?: number;
  /**
   * The sliding failure-rate window, where the breaker keeps one: calls in it, and the shares
   * (0–1) that failed and that were slow.
   */
  window?: { calls: number; failureRate: number; slowCallRate: number };
  /** Passed over for now, though its circuit admits it: why and until when (epoch ms). */
  skipped?: { reason: SkipReason; until?: number; budget?: string };
  /** This minute's requests and tokens against the model's `rpm` / `tpm` (shared with Redis). */
  limits?: {
    rpm?: { used: number; limit: number };
    tpm?: { used: number; limit: number };
  };
}

/**
 * Implemented by routing components (RoutingChatModel, ModelRouter, strategies) so that health
 * checks and the Nest module can see inside a tree of models without knowing its shape.
 */
export interface InspectableRouting {
  /** The state of every model below this component, read with the strategies' own clock. */
  inspectModels(): ModelStatus[];
  /**
   * Gives the component (and what it contains) a shared state store and a key scope, unless it
   * was built with an explicit store. Called once by the Nest module at start-up.
   */
  bindRouteState?(binding: RouteStateBinding): void;
}

export interface RouteStateBinding {
  store: RouteStateStore;
  /** Prefix for keys, e.g. `default/simple`: unique per model group. */
  scope: string;
  clock?: Clock;
  /** The module's budgets: every group checks and charges them, unless it has its own. */
  budgets?: BudgetLedger;
  /**
   * The module's registered models by instance: a route served by one of them alone (no group)
   * is reported under that name, in health and as the model that answered.
   */
  modelNames?: ReadonlyMap<ChatModel, string>;
}

export function isInspectableRouting(value: unknown): value is InspectableRouting {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { inspectModels?: unknown }).inspectModels === 'function'
  );
}

/**
 * `model.shareLatency(binding)` when the model learns its waits (a ResilientChatModel, or a
 * wrapper that forwards it); nothing otherwise. Here, beside RouteStateBinding, so every layer
 * that hands out shared state (groups, routing, the module) binds a model's waits the same way.
 */
export function shareLatencyOf(
  model: unknown,
  binding: { store: RouteStateStore; clock?: Clock },
): void {
  const share = (model as { shareLatency?: unknown } | null)?.shareLatency;
  if (typeof share === 'function') share.call(model, binding);
}
