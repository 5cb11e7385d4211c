import { throwIfAborted } from '../chat/abort.js';
import type { ChatModel } from '../chat/chat-model.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import { ConcurrencyLimitException } from '../errors/concurrency-limit.exception.js';
import type { RoutingObserver } from '../observability/routing-event.js';
import { classifyError } from '../resilience/error-classification.js';
import { ResilientChatModel } from '../resilience/resilient-chat-model.js';
import type {
  ModelRoutingStrategy,
  StrategyCallContext,
} from '../strategies/model-routing-strategy.js';
import { chain, isPromiseLike, type MaybePromise } from '../state/maybe-async.js';
import { endOf, recordedStart, startOf } from '../strategies/attempt-times.js';
import { systemClock, type Clock } from '../clock.js';
import { AimdLimit, type ConcurrencyOptions, type LimitOutcome } from './aimd-limit.js';

/** The concurrency limit of each model instance, shared by every group that serves it. */
const LIMITS = new WeakMap<ChatModel, AimdLimit>();

/** Gives `model` an in-flight limit (YAML `concurrency` of a model). Returns the limit. */
export function limitConcurrency(model: ChatModel, options: ConcurrencyOptions): AimdLimit {
  const limit = new AimdLimit(options);
  LIMITS.set(model, limit);
  // a 429 that the model's retries hide from the group still says the limit is too high
  if (model instanceof ResilientChatModel) {
    model.addRetryListener((event) => {
      if (event.kind === 'rate-limited') limit.overloaded(event.delayMs);
    });
  }
  return limit;
}

export function concurrencyLimitOf(model: ChatModel): AimdLimit | undefined {
  return LIMITS.get(model);
}

/** Whether any of these models has a concurrency limit (a group without one needs no gate). */
export function anyConcurrencyLimit(models: readonly ChatModelWrapper[]): boolean {
  return models.some((wrapper) => LIMITS.has(wrapper.model));
}

/**
 * A strategy in front of another that keeps each model under its concurrency limit: a model at
 * its limit is not offered, so the call goes to the next model of the group; with none left it
 * waits in the limit's short queue, or is refused with ConcurrencyLimitException. Each attempt
 * holds its slot until it settles, and the limit learns from how it settled.
 */
export class ConcurrencyGate implements ModelRoutingStrategy {
  constructor(
    private readonly inner: ModelRoutingStrategy,
    private readonly clock: Clock = systemClock,
  ) {}

  /** When each attempt took its slot, for attempts whose shared times are on another clock. */
  private readonly since = new WeakMap<object, number>();

  /** Synchronous when the strategy is and a model has room (the common case): no extra tick. */
  route(
    models: readonly ChatModelWrapper[],
    request: ChatRequest,
    context?: StrategyCallContext,
  ): MaybePromise<ChatModelWrapper | undefined> {
    const open = models.every(hasRoom) ? models : models.filter(hasRoom);
    if (open.length === 0) return this.waitForRoom(models, request, context);
    const picked = this.inner.route(open, request, context);
    return isPromiseLike(picked)
      ? picked.then((chosen) => this.claim(chosen, models, request, context))
      : this.claim(picked, models, request, context);
  }

  /** Takes a slot of the chosen model's limit; chooses again if it filled meanwhile. */
  private claim(
    picked: ChatModelWrapper | undefined,
    models: readonly ChatModelWrapper[],
    request: ChatRequest,
    context: StrategyCallContext | undefined,
  ): MaybePromise<ChatModelWrapper | undefined> {
    if (!picked) return picked;
    const limit = LIMITS.get(picked.model);
    if (!limit || !context) return picked;
    if (limit.tryAcquire()) {
      this.hold(context, limit, limit.lastTicket);
      return picked;
    }
    // filled while the strategy chose: let it release what it claimed, and choose again
    return chain(this.inner.onCancel?.(picked, undefined, request, context), () =>
      this.route(models, request, context),
    );
  }

  /**
   * No model has room: wait in a limit's queue, where a freed slot is handed over already taken,
   * and give it to one of that limit's models; or refuse.
   */
  private async waitForRoom(
    models: readonly ChatModelWrapper[],
    request: ChatRequest,
    context?: StrategyCallContext,
  ): Promise<ChatModelWrapper | undefined> {
    if (context?.onlyIfAvailable) return undefined;
    const queue = models.map((model) => LIMITS.get(model.model)).find((l) => l && l.queueMs > 0);
    const ticket = queue ? await queue.waitForSlot(context?.signal) : 0;
    if (!queue || ticket === 0) {
      throwIfAborted(context?.signal); // the caller left the queue: its abort, not a 429
      throw new ConcurrencyLimitException(models.map((model) => model.name));
    }
    const served = models.filter((model) => LIMITS.get(model.model) === queue);
    let picked: ChatModelWrapper | undefined;
    try {
      picked = await this.inner.route(served, request, context);
    } finally {
      if (!picked || !context) queue.release('other');
    }
    if (picked && context) this.hold(context, queue, ticket);
    return picked;
  }

  /** Keeps the slot on the attempt's context, released when the attempt settles. */
  private hold(context: StrategyCallContext, limit: AimdLimit, ticket: number): void {
    const hold = context as HoldsConcurrencySlot;
    hold.concurrencySlot = limit;
    hold.concurrencyTicket = ticket;
    // the attempt's start, as the strategy read it when it admitted it, and shared on the
    // attempt; kept apart only when the attempt's times are on another clock
    const since = startOf(context, this.clock);
    if (recordedStart(context, this.clock) !== since) this.since.set(context, since);
  }

  onSuccess(
    model: ChatModelWrapper,
    response: ChatResponse,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void> {
    this.settle(context, 'success');
    return this.inner.onSuccess?.(model, response, request, context);
  }

  onFailure(
    model: ChatModelWrapper,
    error: unknown,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void> {
    this.settle(context, isOverload(error, context) ? 'overload' : 'other');
    return this.inner.onFailure?.(model, error, request, context);
  }

  onCancel(
    model: ChatModelWrapper,
    reason: unknown,
    request: ChatRequest,
    context?: StrategyCallContext,
  ): void | Promise<void> {
    this.settle(context, 'other');
    return this.inner.onCancel?.(model, reason, request, context);
  }

  onFirstToken(model: ChatModelWrapper, request: ChatRequest, context?: StrategyCallContext) {
    return this.inner.onFirstToken?.(model, request, context);
  }

  retryAfterMs(models: readonly ChatModelWrapper[]): number | undefined {
    return this.inner.retryAfterMs?.(models);
  }

  registerModels(models: readonly ChatModelWrapper[]): void {
    this.inner.registerModels?.(models);
  }

  onEvent(listener: RoutingObserver): () => void {
    return this.inner.onEvent?.(listener) ?? (() => undefined);
  }

  private settle(context: StrategyCallContext | undefined, outcome: LimitOutcome): void {
    const hold = context as HoldsConcurrencySlot | undefined;
    const limit = hold?.concurrencySlot;
    if (!limit) return;
    hold!.concurrencySlot = undefined;
    const since = recordedStart(hold!, this.clock) ?? this.since.get(hold!);
    limit.release(
      outcome,
      since === undefined ? undefined : endOf(hold!, this.clock) - since,
      hold!.concurrencyTicket,
    );
  }
}

/**
 * The slot an attempt holds is kept on its context (one gate per group, and a context per
 * attempt of that group): cheaper than a WeakMap keyed by the context, whose entry per attempt
 * every young-generation collection must trace. ModelRouter's contexts declare the field, so
 * setting it does not change their shape.
 */
export interface HoldsConcurrencySlot {
  concurrencySlot?: AimdLimit | undefined;
  /** The limit's round when the slot was taken: a 429 from an older round shrinks it no more. */
  concurrencyTicket?: number | undefined;
}

function hasRoom(model: ChatModelWrapper): boolean {
  return LIMITS.get(model.model)?.hasRoom() ?? true;
}

/** A 429, or a 503/529 that says the provider is overloaded: the limit is too high. */
function isOverload(error: unknown, context: StrategyCallContext | undefined): boolean {
  const kind = context?.errorKind ?? classifyError(error, context?.signal);
  if (kind === 'rate-limited') return true;
  const status = (error as { status?: unknown } | null)?.status;
  return status === 503 || status === 529;
}
