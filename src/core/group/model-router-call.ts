import { throwIfAborted } from '../chat/abort.js';
import { quietly, untilAborted } from './call-hooks.js';
import { exhaustedMessage } from './exhausted-message.js';
import type { ChatCallOptions } from '../chat/chat-model.js';
import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import { NoMatchingModelFoundException, RoutingException } from '../errors/exceptions.js';
import { BudgetExceededException } from '../errors/budget-exceeded.exception.js';
import { UnpricedModelException } from '../errors/unpriced-model.exception.js';
import { emitTo, summarizeError, type RoutingEvent } from '../observability/routing-event.js';
import {
  dispositionOf,
  type ErrorClassifier,
  type ErrorDisposition,
  type ErrorKind,
} from '../resilience/error-classification.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import { toolLoopModelName } from './model-response.js';
import { sessionOf, type SessionAffinity } from './session-affinity.js';
import type {
  ModelErrorListener,
  ModelRoutingStrategy,
  StrategyCallContext,
} from '../strategies/model-routing-strategy.js';
import { routeAttribute, probeAttribute } from '../chat/call-attributes.js';
import type { AttemptTimes } from '../strategies/attempt-times.js';
import type { HoldsConcurrencySlot } from '../limits/concurrency-gate.js';

/** What a ModelRouter is made of, as one call sees it. */
export interface RouterGroup {
  readonly models: readonly ChatModelWrapper[];
  readonly defaultModel?: ChatModelWrapper;
  readonly strategy: ModelRoutingStrategy;
  /** Live: listeners added later see later calls. */
  readonly listeners: readonly ModelErrorListener[];
  readonly classify: ErrorClassifier;
  readonly dispositions?: Partial<Record<ErrorKind, Partial<ErrorDisposition>>>;
  /** Session pins; calls without a session attribute never touch them. */
  readonly sessions?: SessionAffinity;
}

/** One model tried within a call. */
export interface Attempt {
  readonly model: ChatModelWrapper;
  readonly isDefault: boolean;
  /** 1-based. */
  readonly number: number;
  /** Given to the strategy's `route` and to the hook that settles this attempt. */
  readonly context: AttemptContext;
}

type AttemptContext = {
  -readonly [K in keyof StrategyCallContext]: StrategyCallContext[K];
} & AttemptTimes &
  HoldsConcurrencySlot;

export interface FailureVerdict {
  readonly kind: ErrorKind;
  readonly disposition: ErrorDisposition;
}

const NO_ATTRIBUTES: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The bookkeeping of one ModelRouter call: which models were tried (each at most once, the
 * default route at most once), every error in order, and the events, listeners and strategy
 * hooks around each attempt. Shared by `chat` and `stream`.
 */
export class ModelRouterCall {
  readonly errors: unknown[] = [];
  /** What the chosen model is called with: only the keys the caller supplied. */
  readonly modelOptions: ChatCallOptions;
  readonly route?: string;
  /** The call's session key (SESSION_ATTRIBUTE), when it has one. */
  readonly session?: string;
  /** The model whose tool loop this round continues (tried first; a round never hedges). */
  readonly toolLoopModelName: string | undefined;
  private readonly tried = new Set<string>();
  /** The model of each entry of `errors`. */
  private readonly failedModels: string[] = [];
  private defaultTried = false;
  private attempts = 0;
  private previous?: string;
  private strategyProblem?: unknown;

  constructor(
    private readonly group: RouterGroup,
    readonly request: ChatRequest,
    readonly options: ChatCallOptions,
    /** A stream: strategies hear of its first token (latency balancing). */
    readonly streaming = false,
  ) {
    const modelOptions: ChatCallOptions = {};
    if (options.signal !== undefined) modelOptions.signal = options.signal;
    if (options.attributes !== undefined) modelOptions.attributes = options.attributes;
    if (options.observer !== undefined) modelOptions.observer = options.observer;
    this.modelOptions = modelOptions;
    const route = routeAttribute.of(options.attributes);
    if (route !== undefined) this.route = route;
    const session = sessionOf(options.attributes);
    if (session !== undefined) this.session = session;
    // the request's shape was checked before the call began (ModelRouter's chat and stream)
    this.toolLoopModelName = toolLoopModelName(request.messages);
  }

  /**
   * The next model to try: the strategy's pick among the untried models that `accept` allows,
   * else the default route once; `undefined` when nothing is left.
   */
  async next(accept?: (model: ChatModelWrapper) => boolean): Promise<Attempt | undefined> {
    const untried = this.group.models.filter(
      (model) => !this.tried.has(model.name) && (!accept || accept(model)),
    );
    const context = this.contextFor(this.attempts + 1);
    let model = untried.length > 0 ? await this.ask(untried, context) : undefined;
    let isDefault = false;
    if (model) {
      this.tried.add(model.name);
    } else {
      const fallback = this.group.defaultModel;
      if (!fallback || this.defaultTried || (accept && !accept(fallback))) return undefined;
      this.defaultTried = true;
      model = fallback;
      isDefault = true;
    }
    this.attempts += 1;
    if (this.previous !== undefined) {
      this.emit({
        type: 'failover',
        ...this.routeField(),
        from: this.previous,
        to: model.name,
        attempt: this.attempts,
      });
    }
    this.emit({
      type: 'model-called',
      ...this.routeField(),
      model: model.name,
      attempt: this.attempts,
    });
    return { model, isDefault, number: this.attempts, context };
  }

  /** The options `attempt`'s model is called with: a half-open probe is marked as one. */
  optionsFor(attempt: Attempt): ChatCallOptions {
    if (!attempt.context.probe) return this.modelOptions;
    return {
      ...this.modelOptions,
      attributes: { ...this.modelOptions.attributes, ...probeAttribute.entry(true) },
    };
  }

  async succeeded(attempt: Attempt, response: ChatResponse, costUsd?: number): Promise<void> {
    this.emit({
      type: 'model-succeeded',
      ...this.routeField(),
      model: attempt.model.name,
      attempt: attempt.number,
      ...(costUsd !== undefined ? { costUsd } : {}),
      ...(response.tokenUsage?.estimated === true ? { usageEstimated: true as const } : {}),
    });
    if (attempt.isDefault) return;
    // the session stays with whichever model answered (re-pinned after a failover)
    if (this.session !== undefined) {
      this.group.sessions?.pin(this.session, this.route, attempt.model.name);
    }
    const { strategy } = this.group;
    await this.hook(() =>
      strategy.onSuccess?.(attempt.model, response, this.request, attempt.context),
    );
  }

  /**
   * Records a failed attempt: the error joins `errors`, every listener hears of it, the observer
   * gets `model-failed`, and the strategy's `onFailure` runs (or `onCancel` for an error that
   * neither fails over nor counts against the model). Returns how the error was classified.
   */
  async failed(attempt: Attempt, error: unknown): Promise<FailureVerdict> {
    const kind = this.classify(error);
    const disposition = dispositionOf(kind, this.group.dispositions);
    attempt.context.errorKind = kind;
    attempt.context.disposition = disposition;
    this.errors.push(error);
    this.failedModels.push(attempt.model.name);
    this.previous = attempt.model.name;
    const event = {
      model: attempt.model.name,
      error,
      attempt: attempt.number,
      request: this.request,
    };
    for (const listener of this.group.listeners) void quietly(() => listener(event));
    this.emit({
      type: 'model-failed',
      ...this.routeField(),
      model: attempt.model.name,
      attempt: attempt.number,
      kind,
      error: summarizeError(error),
    });
    if (!attempt.isDefault) {
      const { strategy } = this.group;
      const judged = disposition.failover || disposition.countsAsFailure;
      await this.hook(() =>
        judged
          ? strategy.onFailure?.(attempt.model, error, this.request, attempt.context)
          : strategy.onCancel?.(attempt.model, error, this.request, attempt.context),
      );
    }
    return { kind, disposition };
  }

  /** The attempt's first stream event arrived. */
  async firstToken(attempt: Attempt): Promise<void> {
    if (attempt.isDefault) return;
    const { strategy } = this.group;
    await this.hook(() => strategy.onFirstToken?.(attempt.model, this.request, attempt.context));
  }

  /** The attempt ended without a verdict (the caller stopped reading): release what it holds. */
  async cancelled(attempt: Attempt, reason: unknown): Promise<void> {
    if (attempt.isDefault) return;
    attempt.context.errorKind = 'aborted';
    attempt.context.disposition = dispositionOf('aborted', this.group.dispositions);
    const { strategy } = this.group;
    await this.hook(() =>
      strategy.onCancel?.(attempt.model, reason, this.request, attempt.context),
    );
  }

  /** The caller aborted while the model was being chosen: release it and reject with the reason. */
  async abortIfAborted(attempt: Attempt): Promise<void> {
    const signal = this.options.signal;
    if (!signal?.aborted) return;
    await this.cancelled(attempt, signal.reason);
    throwIfAborted(signal);
  }

  /** The error that ends a call with nothing left to try; also reported as `router-exhausted`. */
  exhausted(): NoMatchingModelFoundException {
    const retryAfterMs = this.retryAfterMs();
    this.emit({
      type: 'router-exhausted',
      ...this.routeField(),
      attempts: this.attempts,
      errors: this.errors.map(summarizeError),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
    return new NoMatchingModelFoundException(
      exhaustedMessage({
        names: this.group.models.map((model) => model.name),
        hasDefaultRoute: this.group.defaultModel !== undefined,
        errors: this.errors,
        failedModels: this.failedModels,
        strategyProblem: this.strategyProblem,
        retryAfterMs,
      }),
      [...this.errors],
      retryAfterMs !== undefined ? { retryAfterMs } : {},
    );
  }

  private async ask(
    untried: readonly ChatModelWrapper[],
    context: AttemptContext,
  ): Promise<ChatModelWrapper | undefined> {
    try {
      // a tool loop returns to the model that asked for the tool, a session to the model that
      // last answered it, if the strategy admits that model now
      const sticky = this.attempts === 0 ? this.preferredModel(untried) : undefined;
      if (sticky) {
        context.onlyIfAvailable = true;
        const picked = await this.pick([sticky], context);
        delete context.onlyIfAvailable;
        // anything but the preferred model (a strategy ignoring what it is offered) means no
        if (picked === sticky || picked?.name === sticky.name) return sticky;
      }
      return this.resolve(await this.pick(untried, context), untried);
    } catch (error) {
      if (this.options.signal?.aborted) throw error;
      // before any attempt the strategy's error is the call's answer; after, it must not hide
      // the models' own errors, so the call ends as exhausted and mentions it. A budget's
      // verdict on every model left is the answer either way: the call stopped there (429).
      if (this.errors.length === 0 || isBudgetVerdict(error)) throw error;
      this.strategyProblem = error;
      return undefined;
    }
  }

  /** The strategy's pick, and its hooks: waited for only until the caller aborts (call-hooks). */
  private pick(models: readonly ChatModelWrapper[], context: AttemptContext) {
    return untilAborted(
      this.group.strategy.route(models, this.request, context),
      this.options.signal,
    );
  }

  private hook(work: () => unknown): Promise<void> {
    return quietly(work, this.options.signal);
  }

  private resolve(
    picked: ChatModelWrapper | undefined,
    offered: readonly ChatModelWrapper[],
  ): ChatModelWrapper | undefined {
    if (picked === undefined || picked === null) return undefined;
    const model =
      offered.find((candidate) => candidate === picked) ??
      offered.find((candidate) => candidate.name === (picked as { name?: unknown }).name);
    if (model) return model;
    const name = (picked as { name?: unknown }).name;
    throw new RoutingException(
      `The routing strategy chose ${typeof name === 'string' ? `model '${name}'` : 'something'} ` +
        `that is not one of the models it was offered (${offered.map((m) => m.name).join(', ')}); ` +
        'a strategy must return one of the given models, or undefined for none.',
    );
  }

  /** The model to try first: the tool loop's model, else the session's pinned model. */
  private preferredModel(untried: readonly ChatModelWrapper[]): ChatModelWrapper | undefined {
    const name = this.toolLoopModelName;
    const toolLoop = name === undefined ? undefined : untried.find((model) => model.name === name);
    if (toolLoop || this.session === undefined) return toolLoop;
    return this.group.sessions?.pinned(this.session, this.route, untried);
  }

  private contextFor(attempt: number): AttemptContext {
    const context: AttemptContext = {
      attributes: this.options.attributes ?? NO_ATTRIBUTES,
      attempt,
      // set per attempt by the strategy, the hedge and the limit: declared here so that every
      // context has one shape (code that reads contexts of several shapes slows down)
      probe: undefined,
      timesClock: undefined,
      startedAt: undefined,
      firstTokenAt: undefined,
      endedAt: undefined,
      concurrencySlot: undefined,
      concurrencyTicket: undefined,
    };
    if (this.options.signal !== undefined) context.signal = this.options.signal;
    if (this.options.observer !== undefined) context.observer = this.options.observer;
    if (this.route !== undefined) context.route = this.route;
    if (this.streaming) context.stream = true;
    return context;
  }

  private classify(error: unknown): ErrorKind {
    try {
      return this.group.classify(error, this.options.signal);
    } catch {
      return 'unknown';
    }
  }

  private retryAfterMs(): number | undefined {
    const { strategy, models } = this.group;
    try {
      const value = strategy.retryAfterMs?.(models);
      return typeof value === 'number' && Number.isFinite(value)
        ? Math.max(0, Math.ceil(value))
        : undefined;
    } catch {
      return undefined;
    }
  }

  private emit(event: RoutingEvent): void {
    emitTo(this.options.observer, event);
  }

  private routeField(): { route?: string } {
    return this.route === undefined ? {} : { route: this.route };
  }
}

/** ModelChecks' refusal of every model left because of a budget (spent, or no price to count). */
function isBudgetVerdict(error: unknown): boolean {
  return error instanceof BudgetExceededException || error instanceof UnpricedModelException;
}
