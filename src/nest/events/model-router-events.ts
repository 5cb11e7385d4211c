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
