import type { RoutingEvent } from '../../core/observability/routing-event.js';
import { MODEL_ROUTER_EVENTS, type ModelRouterEventName } from './model-router-events.js';
import {
  CooldownEndedEvent,
  CooldownStartedEvent,
  DecisionFailedEvent,
  FailoverEvent,
  type ModelRouterEvent,
  RouteFailedEvent,
  RouteSelectedEvent,
  RouterExhaustedEvent,
} from './model-router-event-payloads.js';
import { safeErrorSummary } from '../../core/observability/scrub-credentials.js';
import { mapCostEvent, type ModelRouterCostEventName } from './cost-events.js';

export interface MappedEvent {
  name: ModelRouterEventName | ModelRouterCostEventName;
  payload: ModelRouterEvent;
}

/**
 * Turns a core routing event into the Nest event users listen to, or `undefined` for events
 * that have no public name (retries, successes, circuit transitions, skipped chunks).
 */
export function mapRoutingEvent(event: RoutingEvent, router: string): MappedEvent | undefined {
  switch (event.type) {
    case 'route-selected':
      return {
        name: MODEL_ROUTER_EVENTS.ROUTE_SELECTED,
        payload: new RouteSelectedEvent(
          compact({
            router,
            route: event.route,
            isDefaultRoute: event.isDefaultRoute,
            sticky: event.sticky,
            probabilities: event.probabilities ? { ...event.probabilities } : undefined,
          }),
        ),
      };
    case 'model-failed':
      return {
        name: MODEL_ROUTER_EVENTS.ROUTE_FAILED,
        payload: new RouteFailedEvent(
          compact({
            router,
            route: event.route,
            model: event.model,
            attempt: event.attempt,
            kind: event.kind,
            error: safeErrorSummary(event.error),
          }),
        ),
      };
    case 'failover':
      return {
        name: MODEL_ROUTER_EVENTS.FAILOVER,
        payload: new FailoverEvent(
          compact({
            router,
            route: event.route,
            model: event.to,
            from: event.from,
            to: event.to,
            attempt: event.attempt,
          }),
        ),
      };
    case 'cooldown-started':
      return {
        name: MODEL_ROUTER_EVENTS.COOLDOWN_STARTED,
        payload: new CooldownStartedEvent(
          compact({
            router,
            route: event.route,
            model: event.model,
            cooldownUntil: new Date(event.cooldownUntil).toISOString(),
            failures: event.failures,
            error: event.error ? safeErrorSummary(event.error) : undefined,
          }),
        ),
      };
    case 'cooldown-ended':
      return {
        name: MODEL_ROUTER_EVENTS.COOLDOWN_ENDED,
        payload: new CooldownEndedEvent(
          compact({ router, route: event.route, model: event.model }),
        ),
      };
    case 'router-exhausted':
      return {
        name: MODEL_ROUTER_EVENTS.ROUTER_EXHAUSTED,
        payload: new RouterExhaustedEvent(
          compact({
            router,
            route: event.route,
            attempts: event.attempts,
            errors: event.errors.map(safeErrorSummary),
            retryAfterMs: event.retryAfterMs,
          }),
        ),
      };
    case 'decision-failed':
      return {
        name: MODEL_ROUTER_EVENTS.DECISION_FAILED,
        payload: new DecisionFailedEvent({
          router,
          error: safeErrorSummary(event.error),
          fallback: event.fallback,
        }),
      };
    default:
      return mapCostEvent(event, router);
  }
}

/** Drops keys whose value is undefined, so payloads serialise without empty fields. */
function compact<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}
