import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatResponse, TokenUsage } from '../../core/chat/response.js';
import { OutputCounter, partialUsage } from '../../core/cost/partial-usage.js';
import type { Clock } from '../../core/clock.js';
import {
  emitTo,
  type RoutingEvent,
  type RoutingObserver,
} from '../../core/observability/routing-event.js';
import {
  type CacheOutcome,
  routeAttribute,
  modelAttribute,
} from '../../core/chat/call-attributes.js';

export type ChatCallMode = 'chat' | 'stream';

/** The route and model to name for a call (response headers, the gateway's `model`). */
export interface ServedBy {
  route?: string;
  model?: string;
  /** The budget that sent the call to its fallback, when one did. */
  downgraded?: string;
  /** How the response cache took part, when the call's router is cached. */
  cache?: CacheOutcome;
  /** A semantic hit's similarity to the cached question. */
  cacheSimilarity?: number;
  /** The id of the decision that chose the route (feedback names it). */
  decision?: string;
}

export interface ChatInterceptorContextInit {
  mode: ChatCallMode;
  request: ChatRequest;
  routerName?: string;
  /** Set when the call addresses a model (or an ad-hoc group) directly instead of a router. */
  target?: string;
  /** The configured name of a router that is itself one plain model (no routes, no group). */
  servedAs?: string;
  attributes: Record<string, unknown>;
  signal: AbortSignal;
  clock: Clock;
}

/**
 * What interceptors see of one call, and the one record of who served it. Before
 * `next.handle()`: the request (replace or mutate it, e.g. to redact), the router name and the
 * attributes the router will receive. As soon as they are known: the route the router chose (the
 * outermost), the model being called, the model that answered, and the response. Everyone who
 * needs to know who served a call (headers, metrics, the gateway) reads it here.
 */
export class ChatInterceptorContext {
  readonly mode: ChatCallMode;
  request: ChatRequest;
  readonly routerName: string | undefined;
  /** The model name the call addressed directly (no router). */
  readonly target: string | undefined;
  /** Passed to the router as call attributes; interceptors may add entries before the call. */
  readonly attributes: Record<string, unknown>;
  /** Aborts when the caller aborts or unsubscribes. */
  readonly signal: AbortSignal;
  /** Epoch ms when the call entered the chain. */
  readonly startedAt: number;
  /** The route that served the call: the first one chosen, i.e. the outermost router's. */
  route: string | undefined;
  /** The chosen route's probability, when the router reported probabilities. */
  probability: number | undefined;
  /** The id of the outermost router's decision, when it gave one. */
  decision: string | undefined;
  /** The model of a group being called now (until it answers or fails). */
  answering: string | undefined;
  /**
   * The model that answered, as configured: a group's member name, else the name of a route's
   * only model, else the target, else the router that is one plain model; the provider's id
   * only when none of these is known.
   */
  model: string | undefined;
  response: ChatResponse | undefined;
  /** The budget that sent the call to its fallback (the latest, when several did). */
  downgraded: string | undefined;
  /** The fallback the call went to: what serves it instead of the target addressed. */
  private downgradedTo: string | undefined;
  /** Set by the built-in timing interceptor when the call ends (completed, failed or cancelled). */
  durationMs: number | undefined;
  /**
   * How the response cache took part (`hit`, `semantic-hit`: no model was called and nothing
   * charged), undefined when the call's router is not cached.
   */
  cache: CacheOutcome | undefined;
  /** A semantic hit's cosine similarity to the cached question. */
  cacheSimilarity: number | undefined;
  /** On a hit: what the cached answer cost when it was made (this call costs nothing). */
  cacheSavedUsd: number | undefined;
  /** Text and tool-call arguments streamed so far. */
  private readonly produced = new OutputCounter();
  /** The router or model was called (a refusal before the call leaves it false). */
  private invoked = false;
  /** A router or group spoke (its events): only its `model-called` says a model was reached. */
  private routed = false;
  private readonly observers: RoutingObserver[] = [];
  private readonly servedListeners: ((served: ServedBy) => void)[] = [];
  private readonly clock: Clock;
  private readonly servedAs: string | undefined;

  constructor(init: ChatInterceptorContextInit) {
    this.mode = init.mode;
    this.request = init.request;
    this.routerName = init.routerName;
    this.target = init.target;
    this.servedAs = init.servedAs;
    this.attributes = init.attributes;
    this.signal = init.signal;
    this.clock = init.clock;
    this.startedAt = init.clock();
    this.route = undefined;
    this.probability = undefined;
    this.decision = undefined;
    this.answering = undefined;
    this.model = undefined;
    this.response = undefined;
    this.downgraded = undefined;
    this.durationMs = undefined;
    this.cache = undefined;
    this.cacheSimilarity = undefined;
    this.cacheSavedUsd = undefined;
  }

  /** Milliseconds since the call entered the chain. */
  elapsedMs(): number {
    return this.clock() - this.startedAt;
  }

  /** Who to name now: the model that answered, else the one answering, else what was addressed. */
  servedBy(): ServedBy {
    const model = this.model ?? this.answering ?? this.addressed();
    // read on every event and answer: one object, not one per field
    const served: ServedBy = {};
    if (this.route !== undefined) served.route = this.route;
    if (model !== undefined) served.model = model;
    if (this.downgraded !== undefined) served.downgraded = this.downgraded;
    if (this.cache !== undefined) served.cache = this.cache;
    if (this.cacheSimilarity !== undefined) served.cacheSimilarity = this.cacheSimilarity;
    if (this.decision !== undefined) served.decision = this.decision;
    return served;
  }

  /** What the call addressed, or the fallback a budget sent it to. */
  private addressed(): string | undefined {
    return this.downgradedTo ?? this.target ?? this.servedAs;
  }

  /**
   * What the call used: the response's usage once it is complete, else (a stream cut short, a
   * caller gone) an estimate from the prompt and what was streamed so far. Undefined when no
   * model was called, or when one failed before producing anything and the caller stayed
   * (providers do not bill a failed request). `cancelled`: the caller left (default: the call's
   * signal says so). What a per-caller token window is charged with.
   */
  usage(cancelled = this.signal.aborted): TokenUsage | undefined {
    if (this.response) return this.response.tokenUsage;
    if (!this.reachedModel()) return undefined;
    if (this.produced.deltas === 0 && !cancelled) return undefined;
    return partialUsage(this.request, this.produced);
  }

  /** A group reports the model it calls; a model called directly reports nothing. */
  private reachedModel(): boolean {
    if (this.answering !== undefined || this.model !== undefined) return true;
    return this.invoked && !this.routed;
  }

  /** @internal the router or model is being called now. */
  noteInvoked(): void {
    this.invoked = true;
  }

  /** @internal an event on its way to the caller: streamed output counts toward `usage()`. */
  noteEvent(event: ChatStreamEvent): void {
    if (event.type === 'text-delta') this.produced.add(event.text);
    else if (event.type === 'tool-call-delta') this.produced.add(event.argumentsDelta);
  }

  /** Called whenever the route or model to name changes (e.g. to set response headers early). */
  onServed(listener: (served: ServedBy) => void): void {
    this.servedListeners.push(listener);
  }

  /** Registers an observer of the routing events of this call (route selected, failover…). */
  observe(observer: RoutingObserver): void {
    this.observers.push(observer);
  }

  /** @internal records what the event says about who serves, then tells every observer. */
  notify(event: RoutingEvent): void {
    this.routed = true;
    this.record(event);
    for (const observer of this.observers) emitTo(observer, event);
  }

  /** @internal the response cache's outcome, known before the router would be called. */
  recordCache(outcome: CacheOutcome, similarity?: number, savedUsd?: number): void {
    this.cache = outcome;
    this.cacheSavedUsd = savedUsd;
    if (similarity !== undefined) this.cacheSimilarity = Math.round(similarity * 1000) / 1000;
    this.servedChanged();
  }

  /** @internal the response completes the record (a model without groups emits no events). */
  recordResponse(response: ChatResponse): void {
    this.response = response;
    const attributes = response.aiMessage?.attributes;
    const route = routeAttribute.of(attributes);
    const member = modelAttribute.of(attributes);
    const changed = (this.route === undefined && route !== undefined) || this.model === undefined;
    if (this.route === undefined && route !== undefined) this.route = route;
    // a group's member, else the model named when the route was chosen, else what was addressed
    this.model ??= member ?? this.answering ?? this.addressed() ?? response.modelName;
    if (changed) this.servedChanged();
  }

  private record(event: RoutingEvent): void {
    if (event.type === 'route-selected') {
      // the outermost route names the call; the route a model serves alone names its model
      const outermost = this.route === undefined;
      const named = event.model !== undefined && this.model === undefined;
      if (!outermost && !named) return;
      if (outermost) {
        this.route = event.route;
        this.probability = event.probabilities?.[event.route];
        this.decision = event.decision;
      }
      if (named) this.answering = event.model;
    } else if (event.type === 'budget-downgraded') {
      // what the refused target chose is not what serves the call
      this.downgraded = event.budget;
      this.downgradedTo = event.to;
      this.route = undefined;
      this.probability = undefined;
      this.answering = undefined;
      this.model = undefined;
    } else if (event.type === 'model-called' && this.model === undefined) {
      this.answering = event.model;
    } else if (event.type === 'model-succeeded' && this.model === undefined) {
      this.model = event.model;
    } else {
      return;
    }
    this.servedChanged();
  }

  private servedChanged(): void {
    if (this.servedListeners.length === 0) return;
    const served = this.servedBy();
    for (const listener of this.servedListeners) {
      try {
        listener(served);
      } catch {
        // a listener (e.g. a header writer after the response went out) never fails the call
      }
    }
  }
}
