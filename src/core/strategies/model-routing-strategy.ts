import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse, TokenUsage } from '../chat/response.js';
import type { RoutingObserver } from '../observability/routing-event.js';
import type { ErrorDisposition, ErrorKind } from '../resilience/error-classification.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';

/**
 * What a strategy may know about the call it serves (an optional last argument). ModelRouter
 * passes the same object to `route` and to the hook that settles that attempt, so a strategy may
 * key per-attempt bookkeeping (a token reservation, a probe slot) on it.
 */
export interface StrategyCallContext {
  readonly signal?: AbortSignal;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly observer?: RoutingObserver;
  /** The route this group serves, read from the call's attributes. */
  readonly route?: string;
  /** 1-based attempt number within the call. */
  readonly attempt: number;
  /**
   * Set when the router asks about one preferred model only (the model a tool loop's last answer
   * came from): return it if it is available now, else undefined, without any fallback policy.
   */
  readonly onlyIfAvailable?: boolean;
  /** The call streams (balancers measure time to first token instead of the whole answer). */
  readonly stream?: boolean;
  /** In `onFailure`/`onCancel`: how the router classified the error. */
  readonly errorKind?: ErrorKind;
  /** In `onFailure`/`onCancel`: what the classification means (does it count against the model?). */
  readonly disposition?: ErrorDisposition;
  /**
   * In `onFailure`/`onCancel`: what the attempt used before it ended without an answer (a stream
   * cut after output began, a call the caller left): the provider's report where there is one,
   * else an estimate from the prompt and the output so far. Absent when nothing was used (the
   * model failed before producing anything). Budgets and token windows are charged with it.
   */
  readonly usage?: TokenUsage;
  /**
   * Set by a strategy that admitted this attempt as a half-open probe of a recovering model: the
   * model is then called with `PROBE_ATTRIBUTE`, so it makes one attempt without retries.
   */
  readonly probe?: boolean;
}

export type ModelRoutingFunction = (
  models: readonly ChatModelWrapper[],
  request: ChatRequest,
  context?: StrategyCallContext,
) => ChatModelWrapper | undefined | Promise<ChatModelWrapper | undefined>;

/** Picks a model among those not yet tried in this call. A bare function is also a strategy. */
export interface ModelRoutingStrategy {
  route(
    models: readonly ChatModelWrapper[],
    request: ChatRequest,
    context?: StrategyCallContext,
  ): ChatModelWrapper | undefined | Promise<ChatModelWrapper | undefined>;
  onSuccess?(
    model: ChatModelWrapper,
    response: ChatResponse,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void>;
  /**
   * The model failed. ModelRouter calls it for every error it fails over from, and for errors it
   * does not fail over from only when they count against the model; `context.disposition` says
   * whether this one counts.
   */
  onFailure?(
    model: ChatModelWrapper,
    error: unknown,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void>;
  /**
   * The attempt ended with no verdict on the model: the caller aborted, the caller's own error,
   * or a stream the caller stopped reading. Release what `route` reserved for it.
   */
  onCancel?(
    model: ChatModelWrapper,
    reason: unknown,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void>;
  /** A streamed attempt produced its first event (latency balancing measures up to here). */
  onFirstToken?(
    model: ChatModelWrapper,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void>;
  /** When no model can be tried now: ms until the earliest one can (a retry-after hint). */
  retryAfterMs?(models: readonly ChatModelWrapper[]): number | undefined;
  /**
   * Called once by ModelRouter's constructor with the group's models, so the strategy can report
   * on all of them (health) before any call.
   */
  registerModels?(models: readonly ChatModelWrapper[]): void;
  /**
   * Subscribes to the events the strategy notices outside a call or in a call without an
   * observer (e.g. a cooldown ending while a health check reads state). Returns the unsubscribe.
   */
  onEvent?(listener: RoutingObserver): () => void;
}

export interface ModelErrorEvent {
  /** The failed model's name. */
  model: string;
  error: unknown;
  /** Counts from 1 within the call. */
  attempt: number;
  request: ChatRequest;
}

export type ModelErrorListener = (event: ModelErrorEvent) => void;
