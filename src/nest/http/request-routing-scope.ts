import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChatInterceptorContext, ServedBy } from '../interceptors/chat-interceptor-context.js';

export type ServedListener = (served: ServedBy) => void;

/**
 * What one HTTP request knows about routing: the router its handler chose with `@UseRouter`, the
 * session its client named (`x-model-router-session`), and the latest RoutingChatService call
 * made while handling it, whose record says which route and model served it. The one
 * AsyncLocalStorage of a request.
 */
export class RequestRoutingScope {
  /** The latest call made while handling the request (its context is the call's record). */
  call: ChatInterceptorContext | undefined;
  private readonly listeners: ServedListener[] = [];

  constructor(
    readonly router: string | undefined,
    /** The framework's request object, so a second interceptor run can recognise its request. */
    readonly request?: object,
    /** The session key RoutingChatService passes as SESSION_ATTRIBUTE, when the client sent one. */
    readonly session?: string,
  ) {}

  get route(): string | undefined {
    return this.call?.servedBy().route;
  }

  get model(): string | undefined {
    return this.call?.servedBy().model;
  }

  /** @internal called by RoutingChatService for each call it starts while handling the request. */
  attach(call: ChatInterceptorContext): void {
    this.call = call;
    scopes.set(call, this);
    const tell = (served: ServedBy) => {
      for (const listener of this.listeners) listener(served);
    };
    call.onServed(tell);
    // a model addressed directly is known before any event (a stream's headers need it)
    const served = call.servedBy();
    if (served.model !== undefined) tell(served);
  }

  /** Called as soon as the route or model of a call is known, and whenever it changes. */
  onServed(listener: ServedListener): void {
    this.listeners.push(listener);
  }
}

const storage = new AsyncLocalStorage<RequestRoutingScope>();
const scopes = new WeakMap<ChatInterceptorContext, RequestRoutingScope>();

/** The scope a call's record was attached to (found without the AsyncLocalStorage). */
export function routingScopeOf(call: ChatInterceptorContext): RequestRoutingScope | undefined {
  return scopes.get(call);
}

/**
 * The framework's request object (Express or Fastify) of the HTTP request a RoutingChatService
 * call was made for, when a controller's scope carried it: a chat interceptor reads the caller's
 * own facts from it (its API key, say) without an AsyncLocalStorage.
 */
export function httpRequestOfCall(call: ChatInterceptorContext): object | undefined {
  return scopes.get(call)?.request;
}

export function runInRoutingScope<T>(scope: RequestRoutingScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the HTTP request being handled, when ModelRoutingInterceptor set one. */
export function currentRoutingScope(): RequestRoutingScope | undefined {
  return storage.getStore();
}

/** The record of the latest call of the HTTP request being handled (route, model, probability). */
export function currentCall(): ChatInterceptorContext | undefined {
  return storage.getStore()?.call;
}
