import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import {
  emitTo,
  type RoutingEvent,
  type RoutingObserver,
} from '../../core/observability/routing-event.js';
import type { Clock } from '../../core/clock.js';

export type ChatCallMode = 'chat' | 'stream';

export interface ChatInterceptorContextInit {
  mode: ChatCallMode;
  request: ChatRequest;
  routerName?: string;
  /** Set when the call addresses a model directly instead of a router. */
  model?: string;
  attributes: Record<string, unknown>;
  signal: AbortSignal;
  clock: Clock;
}

/**
 * What interceptors see of one call. Before `next.handle()`: the request (replace or mutate it,
 * e.g. to redact), the router name and the attributes the router will receive. After the call
 * (or as soon as they are known): the route and model that served it, and the response.
 */
export class ChatInterceptorContext {
  readonly mode: ChatCallMode;
  request: ChatRequest;
  readonly routerName: string | undefined;
  /** Passed to the router as call attributes; interceptors may add entries before the call. */
  readonly attributes: Record<string, unknown>;
  /** Aborts when the caller aborts or unsubscribes. */
  readonly signal: AbortSignal;
  /** Epoch ms when the call entered the chain. */
  readonly startedAt: number;
  route: string | undefined;
  model: string | undefined;
  response: ChatResponse | undefined;
  /** Set by the built-in timing interceptor when the call ends (completed, failed or cancelled). */
  durationMs: number | undefined;
  private readonly observers: RoutingObserver[] = [];
  private readonly clock: Clock;

  constructor(init: ChatInterceptorContextInit) {
    this.mode = init.mode;
    this.request = init.request;
    this.routerName = init.routerName;
    this.model = init.model;
    this.attributes = init.attributes;
    this.signal = init.signal;
    this.clock = init.clock;
    this.startedAt = init.clock();
    this.route = undefined;
    this.response = undefined;
    this.durationMs = undefined;
  }

  /** Milliseconds since the call entered the chain. */
  elapsedMs(): number {
    return this.clock() - this.startedAt;
  }

  /** Registers an observer of the routing events of this call (route selected, failover…). */
  observe(observer: RoutingObserver): void {
    this.observers.push(observer);
  }

  /** @internal delivers an event to every observer; one observer's failure never reaches others. */
  notify(event: RoutingEvent): void {
    for (const observer of this.observers) emitTo(observer, event);
  }
}
