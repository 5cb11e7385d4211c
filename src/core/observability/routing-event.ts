import type { ErrorKind } from '../errors/error-kind.js';
import type { ErrorSummary } from '../errors/error-summary.js';

export { summarizeError, type ErrorSummary } from '../errors/error-summary.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

/**
 * What the routing components report while serving a call. `route` is read from the call's
 * attributes, so a model group inside a RoutingChatModel knows which route it serves.
 */
export type RoutingEvent =
  | {
      type: 'route-selected';
      route: string;
      isDefaultRoute: boolean;
      /** The route came from the tool loop's sticky attribute; the router was not asked. */
      sticky?: boolean;
      probabilities?: Record<string, number>;
      /** The configured name of the route's model when one model serves it alone (no group). */
      model?: string;
      /** The id of the router's decision, which feedback names (DecisionModelChatModelRouter). */
      decision?: string;
    }
  | { type: 'decision-failed'; error: ErrorSummary; fallback: 'default-route' | 'fail' }
  | {
      type: 'model-failed';
      route?: string;
      model: string;
      attempt: number;
      kind: ErrorKind;
      error: ErrorSummary;
    }
  | { type: 'model-retry'; route?: string; model: string; attempt: number; delayMs: number }
  | { type: 'failover'; route?: string; from: string; to: string; attempt: number }
  /** A model of a group is about to be called: the one answering until it succeeds or fails. */
  | { type: 'model-called'; route?: string; model: string; attempt: number }
  | {
      type: 'model-succeeded';
      route?: string;
      model: string;
      attempt: number;
      /** USD of this attempt, when the model has pricing (absent: unknown, not free). */
      costUsd?: number;
      /** The model reported no usage (or part of it): tokens and cost are estimated. */
      usageEstimated?: true;
    }
  /** A balancer chose `model` among `candidates` models that the circuits admitted. */
  | {
      type: 'model-balanced';
      route?: string;
      model: string;
      balancer: string;
      candidates: number;
      /** Chosen for the prompt's prefix (its provider cache), not by the balancer's rule. */
      byPrefix?: true;
    }
  /** A model was passed over for this call before being tried: it was not failed or cooled down. */
  | {
      type: 'model-skipped';
      route?: string;
      model: string;
      reason: SkipReason;
      /** Epoch ms when the reason ends (a rate-limit window, a budget period), when known. */
      until?: number;
      /** The budget that excluded it (`over-budget`). */
      budget?: string;
    }
  | {
      type: 'budget-warning' | 'budget-exceeded';
      budget: string;
      spentUsd: number;
      limitUsd: number;
      /** Epoch ms when the budget's period ends and spend starts from 0. */
      resetsAt: number;
    }
  | {
      /** A budget with a `fallback` refused the call, which goes to the fallback instead. */
      type: 'budget-downgraded';
      budget: string;
      /** The router or model the call addressed, when known. */
      from?: string;
      /** The fallback (a router or model name). */
      to: string;
    }
  | {
      type: 'cooldown-started';
      route?: string;
      model: string;
      /** Epoch ms. */
      cooldownUntil: number;
      failures: number;
      error?: ErrorSummary;
    }
  | { type: 'cooldown-ended'; route?: string; model: string }
  | { type: 'circuit-changed'; route?: string; model: string; from: CircuitState; to: CircuitState }
  | {
      type: 'router-exhausted';
      route?: string;
      attempts: number;
      errors: ErrorSummary[];
      retryAfterMs?: number;
    }
  | { type: 'stream-chunk-skipped'; route?: string; model: string; reason: string }
  /** A hedged request started: `model` still had not answered after `afterMs`, `to` started. */
  | { type: 'hedge-fired'; route?: string; model: string; to: string; afterMs: number }
  /** A hedged request settled: `winner` answered first, `loser` was aborted. */
  | { type: 'hedge-won'; route?: string; winner: string; loser: string; hedge: boolean };

/** Why a model was passed over for a call: its rate limit, a budget, or its context window. */
/** `unpriced`: a budget applies to the call and the model has no price (and must have one). */
export type SkipReason = 'rate-limited' | 'over-budget' | 'context' | 'unpriced';

export type RoutingObserver = (event: RoutingEvent) => void;

/** Delivers an event without letting an observer's failure change the call's outcome. */
export function emitTo(observer: RoutingObserver | undefined, event: RoutingEvent): void {
  if (!observer) return;
  try {
    observer(event);
  } catch {
    // observers watch; they never steer the call
  }
}
