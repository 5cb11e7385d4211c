import {
  raceAbort,
  settlesOnAbort,
  throwIfAborted,
  type SettlesOnAbort,
  type StreamSettlesOnAbort,
} from '../chat/abort.js';
import { assertChatRequestOnce, type ChecksChatRequests } from '../chat/assert-chat-request.js';
import { Capability, capabilitiesOf } from '../chat/capability.js';
import type { ChatCallOptions, ChatModel, ChatStreamEvent } from '../chat/chat-model.js';
import type { ChatRequest, ChatRequestParameters } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import {
  isInspectableRouting,
  type InspectableRouting,
  type ModelStatus,
  type RouteStateBinding,
} from '../inspection/inspection.js';
import type { RoutingObserver } from '../observability/routing-event.js';
import { classifyError, type ErrorClassifier } from '../resilience/error-classification.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import { streamWithFailover } from './failover-stream.js';
import { ModelRouterCall, type Attempt, type RouterGroup } from './model-router-call.js';
import {
  validateListeners,
  wrapDefaultRoute,
  wrapRoutes,
  type ModelRouterOptions,
} from './model-router-options.js';
import { assertChatResponse, withModelAttribute } from './model-response.js';
import type {
  ModelErrorListener,
  ModelRoutingStrategy,
} from '../strategies/model-routing-strategy.js';
import { SessionAffinity } from './session-affinity.js';
import { ModelChecks } from '../limits/model-checks.js';
import { costOfResponse } from '../cost/response-cost.js';
import { withCost } from '../cost/cost.js';
import { partialUsage } from '../cost/partial-usage.js';
import { normalizeStrategy } from '../strategies/strategy-invocation.js';
import { HedgePolicy } from './hedge-policy.js';
import { anyConcurrencyLimit, ConcurrencyGate } from '../limits/concurrency-gate.js';
import { Hedging, openAlone, startHedged, type HedgedOutcome, type Open } from './hedged-open.js';
import { isPromiseLike } from '../state/maybe-async.js';
import { shareLatencyOf } from '../inspection/inspection.js';

const NOTHING_PRODUCED = Object.freeze({ characters: 0, deltas: 0 });
/** A whole answer that lost a hedge holds nothing to free. */
const NOTHING_TO_DISCARD = () => undefined;
/** A hedged answer is checked as it arrives, like an unhedged one. */
const checkAnswer = (response: ChatResponse, attempt: Attempt) =>
  assertChatResponse(response, attempt.model.name);

/**
 * A group of interchangeable models behind one ChatModel: a routing strategy picks the model for
 * each call, and a failed model is replaced by the strategy's next pick among the models not yet
 * tried (each at most once per call, then the default route once). When all fail, the call
 * rejects with NoMatchingModelFoundException carrying every error in order.
 */
export class ModelRouter
  implements ChatModel, InspectableRouting, ChecksChatRequests, SettlesOnAbort, StreamSettlesOnAbort
{
  readonly checksChatRequests = true as const;
  /**
   * `chat` races each model's answer on the caller's signal (unless the model settles on abort
   * itself), and its strategy's pending work: a RoutingChatModel above races it no further.
   */
  readonly settlesOnAbort = true as const;
  /** `stream` races each read on the caller's signal (failover-stream), and the strategy too. */
  readonly streamSettlesOnAbort = true as const;
  protected readonly group: RouterGroup;
  protected readonly strategy: ModelRoutingStrategy;
  /** The checks before each call (context window, rate limits, budgets) around the strategy. */
  protected readonly checks: ModelChecks;
  protected readonly continuation: boolean;
  /** Hedged requests, when the group has `hedge`. */
  protected readonly hedge: HedgePolicy | undefined;
  /** What `chat`'s hedged openings share (one object for the group's calls), with `hedge`. */
  private readonly answerHedging: Hedging<ChatResponse> | undefined;
  /** Which model each session was last answered by (see SESSION_ATTRIBUTE). */
  protected readonly sessions: SessionAffinity;
  private readonly listeners: ModelErrorListener[];

  constructor(options: ModelRouterOptions) {
    const given: Partial<ModelRouterOptions> = options ?? {};
    this.strategy = normalizeStrategy(given.routingStrategy, 'routingStrategy');
    const defaultModel = wrapDefaultRoute(given.defaultRoute);
    const models = Object.freeze(wrapRoutes(given.routes, defaultModel !== undefined));
    if (defaultModel && models.some((model) => model.name === defaultModel.name)) {
      throw new InvalidConfigurationException(
        `defaultRoute is named '${defaultModel.name}' like one of the routes; give it another ` +
          'name with defaultRoute: { name, model }.',
      );
    }
    this.listeners = validateListeners(given.errorListeners);
    if (given.continuation !== undefined && typeof given.continuation !== 'boolean') {
      throw new InvalidConfigurationException('continuation must be true or false.');
    }
    this.continuation = given.continuation ?? false;
    this.hedge = given.hedge === undefined ? undefined : new HedgePolicy(given.hedge);
    this.answerHedging = this.hedge
      ? new Hedging(this.hedge, this.openAnswer, NOTHING_TO_DISCARD, checkAnswer)
      : undefined;
    const classify: ErrorClassifier = given.classifyError ?? classifyError;
    if (typeof classify !== 'function') {
      throw new InvalidConfigurationException(
        'classifyError must be a function (error, signal?) => ErrorKind.',
      );
    }
    this.sessions = new SessionAffinity({
      ...(given.sessionTtlMs !== undefined ? { ttlMs: given.sessionTtlMs } : {}),
      ...(given.sessionStore !== undefined ? { store: given.sessionStore } : {}),
      ...(given.sessionScope !== undefined ? { scope: given.sessionScope } : {}),
    });
    // models with a concurrency limit are offered only while they have room
    this.checks = new ModelChecks(
      anyConcurrencyLimit(models) ? new ConcurrencyGate(this.strategy) : this.strategy,
      models,
      given.budgets !== undefined ? { budgets: given.budgets } : {},
    );
    this.group = {
      models,
      ...(defaultModel ? { defaultModel } : {}),
      strategy: this.checks,
      listeners: this.listeners,
      classify,
      ...(given.errorDispositions ? { dispositions: given.errorDispositions } : {}),
      sessions: this.sessions,
    };
    this.strategy.registerModels?.(models);
  }

  /** The group's models under their names, in registration order (the default route excluded). */
  models(): readonly ChatModelWrapper[] {
    return this.group.models;
  }

  addErrorListener(listener: ModelErrorListener): () => void {
    if (typeof listener !== 'function') {
      throw new InvalidConfigurationException(
        'addErrorListener needs a function (event: ModelErrorEvent) => void.',
      );
    }
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ChatResponse> {
    throwIfAborted(options?.signal);
    assertChatRequestOnce(request, options);
    const call = new ModelRouterCall(this.group, request, options ?? {});
    for (;;) {
      throwIfAborted(options?.signal);
      const attempt = await call.next();
      if (!attempt) throw call.exhausted();
      await call.abortIfAborted(attempt);
      if (this.hedges(attempt.isDefault, call)) {
        // hedgedOpen's steps, run here: one async step less on every hedged call
        const opening = startHedged(call, attempt, this.answerHedging!);
        let outcome: HedgedOutcome<ChatResponse> | Promise<HedgedOutcome<ChatResponse>>;
        if (!opening) {
          outcome = openAlone(call, attempt, this.answerHedging!);
        } else {
          try {
            outcome = opening.answered(await opening.settled);
          } catch (error) {
            outcome = opening.failed(error);
          }
        }
        const opened = isPromiseLike(outcome) ? await outcome : outcome;
        if (opened.kind === 'failed') continue;
        if (opened.kind === 'stop') throw opened.error;
        opened.link.unlink();
        const cost = costOfResponse(opened.value, opened.attempt.model);
        await call.succeeded(opened.attempt, opened.value, cost);
        return withModelAttribute(withCost(opened.value, cost), opened.attempt.model.name);
      }
      let response: ChatResponse;
      try {
        const model = attempt.model.model;
        const answer = Promise.resolve(model.chat(request, call.optionsFor(attempt)));
        // a model that settles on the caller's abort (a resilient one, a provider) races it itself
        response = assertChatResponse(
          await (settlesOnAbort(model) ? answer : raceAbort(answer, options?.signal)),
          attempt.model.name,
        );
      } catch (error) {
        // the caller left while the model was answering: the prompt was read, and is paid for
        if (options?.signal?.aborted)
          attempt.context.usage = partialUsage(request, NOTHING_PRODUCED);
        const { disposition } = await call.failed(attempt, error);
        if (!disposition.failover) throw error;
        continue;
      }
      const cost = costOfResponse(response, attempt.model);
      await call.succeeded(attempt, response, cost);
      return withModelAttribute(withCost(response, cost), attempt.model.name);
    }
  }

  /** Lazy: nothing is routed until iteration starts. */
  async *stream(
    request: ChatRequest,
    options: ChatCallOptions = {},
  ): AsyncGenerator<ChatStreamEvent> {
    throwIfAborted(options?.signal);
    assertChatRequestOnce(request, options);
    const call = new ModelRouterCall(this.group, request, options ?? {}, true);
    const hedge = this.hedges(false, call) ? this.hedge : undefined;
    yield* streamWithFailover(call, this.continuation, hedge);
  }

  /**
   * Whether a call hedges: with `hedge`, except on the default route and in a tool loop's
   * round, which belongs to the model that asked for the tool.
   */
  private hedges(isDefault: boolean, call: ModelRouterCall): boolean {
    return this.hedge !== undefined && !isDefault && call.toolLoopModelName === undefined;
  }

  /**
   * One model's whole answer to `call`'s request (hedgedOpen checks it). On an attempt's own
   * signal, the attempt's link to the caller's signal ends the wait when the caller aborts (see
   * AttemptAbort.onCallerAbort); on the caller's own signal (nothing learnt yet: no link), it is
   * raced on it here. One function for every call: a closure per call would be one more
   * allocation.
   */
  private readonly openAnswer: Open<ChatResponse> = (attempt, signal, call) => {
    const options = call.optionsFor(attempt);
    let answer: Promise<ChatResponse> | ChatResponse;
    try {
      answer = attempt.model.model.chat(call.request, signal ? { ...options, signal } : options);
    } catch (error) {
      return Promise.reject(error);
    }
    if (signal !== call.options.signal || settlesOnAbort(attempt.model.model)) {
      return Promise.resolve(answer);
    }
    return raceAbort(Promise.resolve(answer), signal);
  };

  /**
   * The union of the models' capabilities, except the assistant prefill used for continuation:
   * the group declares it only when every model has it, since any of them may serve.
   */
  supportedCapabilities(): ReadonlySet<Capability> {
    const all = this.allModels();
    const union = new Set<Capability>();
    for (const model of all) for (const capability of capabilitiesOf(model)) union.add(capability);
    if (union.has(Capability.ASSISTANT_PREFILL)) {
      const everyModel = all.every((model) =>
        capabilitiesOf(model).has(Capability.ASSISTANT_PREFILL),
      );
      if (!everyModel) union.delete(Capability.ASSISTANT_PREFILL);
    }
    return union;
  }

  /** Each model applies its own defaults; the group adds none. */
  defaultRequestParameters(): ChatRequestParameters {
    return {};
  }

  /** The strategy's view of each model (available when it keeps none), plus the default route. */
  inspectModels(): ModelStatus[] {
    const statuses = isInspectableRouting(this.strategy)
      ? this.strategy.inspectModels()
      : this.group.models.map((model): ModelStatus => ({
          model: model.name,
          state: 'available',
          failures: 0,
        }));
    for (const status of statuses) {
      const model = this.group.models.find((m) => m.name === status.model);
      const skip = model && this.checks.skipOf(model);
      if (skip && skip.reason !== 'context') status.skipped = skip;
      const limits = model && this.checks.limitUsageOf(model);
      if (limits) status.limits = limits;
    }
    const fallback = this.group.defaultModel;
    if (fallback) statuses.push({ model: fallback.name, state: 'available', failures: 0 });
    return statuses;
  }

  bindRouteState(binding: RouteStateBinding): void {
    this.sessions.bind(binding);
    this.checks.bindRouteState(binding);
    (this.strategy as Partial<InspectableRouting>).bindRouteState?.(binding);
    // the models' learnt waits and the group's hedging are shared with the other replicas
    const shared = { store: binding.store, ...(binding.clock ? { clock: binding.clock } : {}) };
    for (const model of this.allModels()) shareLatencyOf(model, shared);
    this.hedge?.share({ ...shared, scope: binding.scope });
  }

  /**
   * Events the strategy notices outside a call, or in a call without an observer (a cooldown
   * found over by a health check). Returns the unsubscribe.
   */
  onEvent(listener: RoutingObserver): () => void {
    return this.strategy.onEvent?.(listener) ?? (() => undefined);
  }

  private allModels(): ChatModel[] {
    const models = this.group.models.map((wrapper) => wrapper.model);
    if (this.group.defaultModel) models.push(this.group.defaultModel.model);
    return models;
  }
}
