/** Reflector key under which `@UseRouter(name)` stores the router name. */
export const USE_ROUTER_METADATA = 'nest-model-router:use-router';
