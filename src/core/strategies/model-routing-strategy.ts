import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import type { RoutingObserver } from '../observability/routing-event.js';
import type { ChatModelWrapper } from './chat-model-wrapper.js';

/** What a strategy may know about the call it serves (an optional last argument). */
export interface StrategyCallContext {
  readonly signal?: AbortSignal;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly observer?: RoutingObserver;
  /** The route this group serves, read from the call's attributes. */
  readonly route?: string;
  /** 1-based attempt number within the call. */
  readonly attempt: number;
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
  onFailure?(
    model: ChatModelWrapper,
    error: unknown,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void>;
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
