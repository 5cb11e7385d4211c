import type { Clock } from '../clock.js';
import type { CircuitBreakerOptions } from '../circuit/circuit-policy.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import type { ModelRoutingFunction, ModelRoutingStrategy } from './model-routing-strategy.js';

export interface FailoverStrategyOptions extends CircuitBreakerOptions {
  /** Chooses among the models whose circuit admits a request; default: the first in order. */
  delegate?: ModelRoutingStrategy | ModelRoutingFunction;
  clock?: Clock;
  /** Where circuits live; default: a new in-memory store. The Nest module may bind a shared one. */
  store?: RouteStateStore;
  /** Key prefix of this group's circuits; default: unique per strategy instance. */
  scope?: string;
  /**
   * When no circuit admits a request: `fail-fast` (default) returns no model, so ModelRouter
   * throws NoMatchingModelFoundException with a retry-after hint; `try-oldest` tries the model
   * whose circuit opened longest ago.
   */
  whenAllOpen?: 'fail-fast' | 'try-oldest';
}

/** The options of FailoverStrategy beyond the breaker's (which `resolveCircuitPolicy` checks). */
export function validateFailoverOptions(given: FailoverStrategyOptions): void {
  if (given.clock !== undefined && typeof given.clock !== 'function') {
    throw new InvalidConfigurationException(
      'clock must be a function returning epoch milliseconds.',
    );
  }
  if (given.whenAllOpen !== undefined && !['fail-fast', 'try-oldest'].includes(given.whenAllOpen)) {
    throw new InvalidConfigurationException(
      `whenAllOpen must be 'fail-fast' or 'try-oldest'; got ${String(given.whenAllOpen)}.`,
    );
  }
}
