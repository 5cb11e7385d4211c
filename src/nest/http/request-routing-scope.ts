import { AsyncLocalStorage } from 'node:async_hooks';

export type ServedListener = (served: { route?: string; model?: string }) => void;

/**
 * What one HTTP request knows about routing: the router its handler chose with `@UseRouter`, the
 * session its client named (`x-model-router-session`), and the route and model that served the
 * last RoutingChatService call made while handling it.
 */
export class RequestRoutingScope {
  route: string | undefined;
  model: string | undefined;
  private readonly listeners: ServedListener[] = [];

  constructor(
    readonly router: string | undefined,
    /** The framework's request object, so a second interceptor run can recognise its request. */
    readonly request?: object,
    /** The session key RoutingChatService passes as SESSION_ATTRIBUTE, when the client sent one. */
    readonly session?: string,
  ) {}

  /** Called by RoutingChatService as soon as the route or model of a call is known. */
  recordServed(served: { route?: string; model?: string }): void {
    if (served.route !== undefined) this.route = served.route;
    if (served.model !== undefined) this.model = served.model;
    for (const listener of this.listeners) listener({ route: this.route, model: this.model });
  }

  onServed(listener: ServedListener): void {
    this.listeners.push(listener);
  }
}

const storage = new AsyncLocalStorage<RequestRoutingScope>();

export function runInRoutingScope<T>(scope: RequestRoutingScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the HTTP request being handled, when ModelRoutingInterceptor set one. */
export function currentRoutingScope(): RequestRoutingScope | undefined {
  return storage.getStore();
}
