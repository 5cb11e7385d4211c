/** Injection token of a model registered under `models.<name>`. */
export function getChatModelToken(name: string): string {
  return `nest-model-router:model:${name}`;
}

/** Injection token of a router registered under `routers.<name>`. */
export function getRouterToken(name: string): string {
  return `nest-model-router:router:${name}`;
}

/** The options object given to `forRoot`, or returned by the `forRootAsync` factory. */
export const MODEL_ROUTER_MODULE_OPTIONS = 'MODEL_ROUTER_MODULE_OPTIONS';
