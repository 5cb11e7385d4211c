import type { RouteStateBinding } from '../inspection/inspection.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { ChatModelRoute } from './chat-model-route.js';
import type {
  ChatModelRouter,
  ChatModelRouterFunction,
  ChatModelRoutingRequest,
} from './chat-model-router.js';
import type { ChatModelRoutingResult } from './chat-model-routing-result.js';
import { typeName } from './route-validation.js';

/** A router object and a bare router function, seen the same way. */
export interface NormalizedRouter {
  route(request: ChatModelRoutingRequest): Promise<ChatModelRoutingResult>;
  validate?(routes: readonly ChatModelRoute[]): void;
  /** A router with state of its own takes the module's store (a decision router's target share). */
  bindRouteState?(binding: RouteStateBinding): void;
  /** The share each route with a target got (a decision router's `targetShare`). */
  routeShares?(): readonly RouteShareStatus[];
}

/** A route's calibrated share: its target, the share it got over the window, its threshold. */
export interface RouteShareStatus {
  route: string;
  target: number;
  achieved?: number;
  threshold?: number;
  samples: number;
}

const ROUTER_SHAPE =
  'a ChatModelRouter (an object with route(request)) or a function (request) => ChatModelRoutingResult';

export function normalizeRouter(router: unknown): NormalizedRouter {
  if (router === undefined || router === null) {
    throw new InvalidConfigurationException(`router is missing; pass ${ROUTER_SHAPE}.`);
  }
  if (typeof router === 'function') {
    const fn = router as ChatModelRouterFunction & { validate?: unknown };
    // async so that a router throwing synchronously still rejects, like an async one would
    return withValidate({ route: async (request) => fn(request) }, fn);
  }
  if (typeof router === 'object' && typeof (router as ChatModelRouter).route === 'function') {
    const object = router as ChatModelRouter;
    return withValidate({ route: async (request) => object.route(request) }, object);
  }
  throw new InvalidConfigurationException(
    `router must be ${ROUTER_SHAPE}; got ${typeName(router)}.`,
  );
}

function withValidate(normalized: NormalizedRouter, router: object): NormalizedRouter {
  const validate = (router as { validate?: unknown }).validate;
  if (typeof validate === 'function') {
    normalized.validate = (routes) => validate.call(router, routes);
  }
  const share = (router as { targetShare?: { report?: unknown } }).targetShare;
  if (typeof share?.report === 'function') {
    const report = share.report as () => RouteShareStatus[];
    normalized.routeShares = () => report.call(share);
  }
  const bind = (router as { bindRouteState?: unknown }).bindRouteState;
  if (typeof bind === 'function') {
    normalized.bindRouteState = (binding) => bind.call(router, binding);
  }
  return normalized;
}
