import { isAbortError, raceAbort, throwIfAborted } from '../chat/abort.js';
import { InvalidConfigurationException, RoutingException } from '../errors/exceptions.js';
import { logSafe } from '../observability/log-safe.js';
import type { Clock } from '../clock.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import { emitTo, summarizeError } from '../observability/routing-event.js';
import type { ChatModelRoute } from '../routing/chat-model-route.js';
import type { ChatModelRouter, ChatModelRoutingRequest } from '../routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../routing/chat-model-routing-result.js';
import { scoreAnswer, type ScoredAnswer } from './answer-scoring.js';
import { buildChoiceOptions } from './choice-options.js';
import { buildDecisionInput } from './decision-input.js';
import { TargetShare, validateTargetShare } from './target-share.js';
import {
  DEFAULT_QUESTION,
  FallbackStrategy,
  type ChoiceAnswer,
  type ChoiceQuestion,
  type DecisionInput,
  type DecisionLogger,
  type DecisionModel,
  type DecisionRequest,
} from './decision-model.js';

export interface DecisionModelChatModelRouterOptions {
  /** The question put to the decision model; default `DEFAULT_QUESTION`. */
  question?: string;
  /** Below this best route probability the default route is used; requires a model that reports probabilities. */
  minProbability?: number;
  /** What a decision model failure leads to; default `FallbackStrategy.DEFAULT_ROUTE`. */
  fallbackStrategy?: FallbackStrategy;
  /** How many user/assistant messages the decision model reads; default 3 (1 → the last user message only). */
  maxMessages?: number;
  /** Receives the warning when a failure falls back to the default route; default: the console. */
  logger?: DecisionLogger;
  /** A calibrated share of calls per route, e.g. `{ complex: 0.3 }` (see TargetShare). */
  targetShare?: Record<string, number> | TargetShare;
}

const consoleLogger: DecisionLogger = {
  warn: (message, ...context) => console.warn(message, ...context),
};

const FALLBACK_STRATEGIES: readonly string[] = Object.values(FallbackStrategy);

/** Routes by asking a decision model which route's description fits the conversation. */
export class DecisionModelChatModelRouter implements ChatModelRouter {
  protected readonly question: string;
  protected readonly minProbability: number | undefined;
  protected readonly fallbackStrategy: FallbackStrategy;
  protected readonly maxMessages: number;
  protected readonly logger: DecisionLogger;
  /** Moves the route's threshold so it gets its share of calls; absent when none is set. */
  readonly targetShare: TargetShare | undefined;

  constructor(
    protected readonly decisionModel: DecisionModel,
    options: DecisionModelChatModelRouterOptions = {},
  ) {
    if (typeof decisionModel?.decide !== 'function') {
      throw new InvalidConfigurationException(
        'decisionModel is required: pass an object with a decide(request) method as the first argument',
      );
    }
    const { question, minProbability, fallbackStrategy, maxMessages = 3, logger } = options ?? {};
    if (question !== undefined && (typeof question !== 'string' || question.trim() === '')) {
      throw new InvalidConfigurationException(
        'question must be a non-blank string; omit it to use DEFAULT_QUESTION',
      );
    }
    if (
      minProbability !== undefined &&
      (typeof minProbability !== 'number' || !(minProbability >= 0 && minProbability <= 1))
    ) {
      throw new InvalidConfigurationException(
        `minProbability must be a number between 0 and 1 (got ${String(minProbability)}); omit it to accept any answer`,
      );
    }
    if (!Number.isInteger(maxMessages) || maxMessages < 1) {
      throw new InvalidConfigurationException(
        `maxMessages must be an integer of at least 1 (got ${String(maxMessages)}); use 1 to send only the last user message`,
      );
    }
    if (fallbackStrategy !== undefined && !FALLBACK_STRATEGIES.includes(fallbackStrategy)) {
      throw new InvalidConfigurationException(
        `fallbackStrategy must be one of ${FALLBACK_STRATEGIES.join(', ')} (got ${String(fallbackStrategy)})`,
      );
    }
    if (logger !== undefined && typeof logger?.warn !== 'function') {
      throw new InvalidConfigurationException(
        'logger must have a warn(message, ...context) method (a Nest Logger fits); omit it to log to the console',
      );
    }
    this.question = question ?? DEFAULT_QUESTION;
    this.minProbability = minProbability;
    this.fallbackStrategy = fallbackStrategy ?? FallbackStrategy.DEFAULT_ROUTE;
    this.maxMessages = maxMessages;
    this.logger = logger ?? consoleLogger;
    const share = options?.targetShare;
    this.targetShare = share instanceof TargetShare || !share ? share : new TargetShare(share);
  }

  /**
   * Rejects routes whose option names would collide (e.g. a route named `complex#1`), then lets
   * the decision model prepare for the question its routes make, so that the first request does
   * not pay for it. A model that cannot prepare (no vectors file…) is warned about, not fatal
   * here: its decisions fail the same way later, and the fallback strategy answers them.
   */
  validate(routes: readonly ChatModelRoute[]): void {
    if (this.targetShare)
      validateTargetShare(
        this.targetShare.targets,
        routes.map((r) => r.name),
      );
    const choice = buildChoiceOptions(routes);
    if (typeof this.decisionModel.prepare !== 'function' || choice.options.length < 2) return;
    try {
      this.decisionModel.prepare({ text: this.question, options: choice.options });
    } catch (error) {
      this.logger.warn(
        `decision model could not prepare for the routes: ${(error as Error)?.message ?? String(error)}`,
      );
    }
  }

  /** The module's state store: replicas calibrate the target share together. */
  bindRouteState(binding: { store: RouteStateStore; scope: string; clock?: Clock }): void {
    this.targetShare?.bindRouteState(binding);
  }

  async route(request: ChatModelRoutingRequest): Promise<ChatModelRoutingResult> {
    const { routes, signal } = request;
    if (routes.length === 1) return ChatModelRoutingResult.route(routes[0].name);
    const input = this.buildInput(request);
    if (input === undefined || routes.length === 0) return this.defaultResult(request);

    const choice = buildChoiceOptions(routes);
    const question: ChoiceQuestion = { text: this.question, options: choice.options };
    let scored: ScoredAnswer;
    try {
      const answer = await this.decide(signal ? { input, question, signal } : { input, question });
      scored = scoreAnswer(answer, choice);
      if (this.targetShare) scored = this.targetShare.choose(scored);
    } catch (error) {
      return this.onDecisionFailure(error, request);
    }
    return this.select(scored, request);
  }

  /** What the decision model reads; `undefined` when there is nothing to decide on. */
  protected buildInput(request: ChatModelRoutingRequest): DecisionInput | undefined {
    return buildDecisionInput(request.chatRequest.messages ?? [], this.maxMessages);
  }

  /** Asks the decision model; a model that ignores the signal still cannot outlive an abort. */
  protected async decide(request: DecisionRequest): Promise<ChoiceAnswer> {
    throwIfAborted(request.signal);
    return raceAbort(Promise.resolve(this.decisionModel.decide(request)), request.signal);
  }

  protected select(scored: ScoredAnswer, request: ChatModelRoutingRequest): ChatModelRoutingResult {
    const { route, probabilities } = scored;
    if (this.minProbability === undefined) {
      return ChatModelRoutingResult.route(route, probabilities ? { probabilities } : {});
    }
    if (probabilities === undefined) {
      throw new RoutingException(
        `The decision model reported no probabilities, but minProbability is set to ${this.minProbability}; ` +
          'use a decision model that reports probabilities or remove minProbability',
      );
    }
    // Scores are sums of floats (0.7 + 0.1 < 0.8); a hair's breadth below still counts as equal.
    if (probabilities[route] < this.minProbability - 1e-9) {
      return this.defaultResult(request, probabilities);
    }
    return ChatModelRoutingResult.route(route, { probabilities });
  }

  /**
   * A failed decision: an abort always propagates; otherwise the configured fallback applies.
   * Only the error's class and message are logged and reported, never the error object itself.
   */
  protected onDecisionFailure(
    error: unknown,
    request: ChatModelRoutingRequest,
  ): ChatModelRoutingResult {
    if (isAbortError(error, request.signal)) throw error;
    const fail = this.fallbackStrategy === FallbackStrategy.FAIL;
    const summary = summarizeError(error);
    emitTo(request.observer, {
      type: 'decision-failed',
      error: summary,
      fallback: fail ? 'fail' : 'default-route',
    });
    if (fail) throw error;
    const target =
      request.defaultRoute === undefined
        ? 'the default route'
        : `default route '${request.defaultRoute}'`;
    // the message may quote the decision model's answer, which the conversation can steer
    this.logger.warn(
      logSafe(`Decision model failed (${summary.name}: ${summary.message}); using ${target}`),
    );
    return this.defaultResult(request);
  }

  /** The request's effective default route, when the caller told us which one it is. */
  protected defaultResult(
    request: ChatModelRoutingRequest,
    probabilities?: Record<string, number>,
  ): ChatModelRoutingResult {
    const options = probabilities ? { probabilities } : {};
    return request.defaultRoute
      ? ChatModelRoutingResult.route(request.defaultRoute, options)
      : ChatModelRoutingResult.defaultRoute(options);
  }
}
