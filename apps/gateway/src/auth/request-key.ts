import type { GatewayKey } from './api-keys.js';

/**
 * The authenticated key of a request, set by the auth guard and read by the throttler, the
 * controllers and the access log. Keyed by the framework's request object, which Fastify's
 * hooks, Nest's guards and the routing scope (`RequestRoutingScope.request`) all share.
 */
const keys = new WeakMap<object, GatewayKey>();

export function setKeyOf(request: object, key: GatewayKey): void {
  keys.set(request, key);
}

export function keyOf(request: object | undefined): GatewayKey | undefined {
  return request === undefined ? undefined : keys.get(request);
}
