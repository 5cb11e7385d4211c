/** Names of the events the module emits through `@nestjs/event-emitter` (listen with `@OnEvent`). */
export const MODEL_ROUTER_EVENTS = {
  ROUTE_SELECTED: 'model-router.route.selected',
  ROUTE_FAILED: 'model-router.route.failed',
  FAILOVER: 'model-router.route.failover',
  COOLDOWN_STARTED: 'model-router.cooldown.started',
  COOLDOWN_ENDED: 'model-router.cooldown.ended',
  ROUTER_EXHAUSTED: 'model-router.router.exhausted',
  DECISION_FAILED: 'model-router.decision.failed',
} as const;

export type ModelRouterEventName = (typeof MODEL_ROUTER_EVENTS)[keyof typeof MODEL_ROUTER_EVENTS];

/**
 * Emitted when a shared state store (Redis) stops or resumes sharing: `local-only` means this
 * replica serves on its own state until the store is back. Kept apart from MODEL_ROUTER_EVENTS,
 * whose names are the public contract.
 */
export const STATE_STORE_STATUS_EVENT = 'model-router.state-store.status';
