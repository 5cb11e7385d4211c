import { isAbortError, raceAbort, throwIfAborted } from '../chat/abort.js';
import { InvalidConfigurationException, RoutingException } from '../errors/exceptions.js';
import { logSafe } from '../observability/log-safe.js';
import { emitTo, summarizeError } from '../observability/routing-event.js';
import { routingTracer } from '../observability/tracing.js';
import type { ChatModelRoute } from '../routing/chat-model-route.js';
import type { ChatModelRouter, ChatModelRoutingRequest } from '../routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../routing/chat-model-routing-result.js';
import { scoreAnswer, type ScoredAnswer } from './answer-scoring.js';
import { buildChoiceOptions, type ChoiceOptions } from './choice-options.js';
import { buildDecisionInput } from './decision-input.js';
import { TargetShare, validateTargetShare } from './target-share.js';
import type { DecisionFeedbackOptions, LearnsFromFeedback } from './decision-feedback.js';
import { DecisionLearning, type LabelledInput } from './decision-learning.js';
import type { DecisionRecordsOptions } from './decision-records.js';
import type { LearnedExample, LearnedExamplesOptions } from './learned-examples.js';
import { Teacher, type TeacherStats } from './teacher.js';
import { systemClock, type Clock } from '../clock.js';
import type { RouteStateBinding } from '../inspection/inspection.js';
import { callerAttribute } from '../chat/call-attributes.js';
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
  /** Asked when the decision model is unsure (below `teachBelow`); its answer routes and is learned. */
  teacher?: DecisionModel;
  /** The best route's probability below which the teacher is asked; default 0.6. */
  teachBelow?: number;
  /**
   * The most the teacher is asked, as a share of any 100 consecutive decisions; default 0.3
   * (1: no bound). The budget goes to the least confident decisions (see Teacher).
   */
  maxTeacherShare?: number;
  /** How long and how many decisions take feedback; default 1 hour, 10,000. */
  decisions?: DecisionRecordsOptions;
  /** Bounds of the learned examples (per route, per caller) and how often replicas re-read them. */
  learning?: LearnedExamplesOptions;
  /** Routes from the cheapest to the most capable: `quality: 'bad'` feedback moves an input up. */
  capabilityOrder?: readonly string[];
  /** Labelled inputs learned at start-up (the YAML's `learned:` JSON Lines file). */
  learned?: readonly LabelledInput[];
  /** Time of decisions, for their feedback window; default `Date.now`. */
  clock?: Clock;
}

const consoleLogger: DecisionLogger = {
  warn: (message, ...context) => console.warn(message, ...context),
};

const FALLBACK_STRATEGIES: readonly string[] = Object.values(FallbackStrategy);

/** Routes by asking a decision model which route's description fits the conversation. */
export class DecisionModelChatModelRouter implements ChatModelRouter, LearnsFromFeedback {
  protected readonly question: string;
  protected readonly minProbability: number | undefined;
  protected readonly fallbackStrategy: FallbackStrategy;
  protected readonly maxMessages: number;
  protected readonly logger: DecisionLogger;
  /** Moves the route's threshold so it gets its share of calls; absent when none is set. */
  readonly targetShare: TargetShare | undefined;
  protected readonly teacher: Teacher | undefined;
  protected readonly learning: DecisionLearning;

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
    const { teacher, teachBelow, maxTeacherShare } = options ?? {};
    this.teacher =
      teacher === undefined
        ? undefined
        : new Teacher(teacher, {
            ...(teachBelow !== undefined ? { teachBelow } : {}),
            ...(maxTeacherShare !== undefined ? { maxShare: maxTeacherShare } : {}),
          });
    this.learning = new DecisionLearning(decisionModel, {
      clock: options?.clock ?? systemClock,
      ...(options?.decisions ? { decisions: options.decisions } : {}),
      ...(options?.learning ? { learning: options.learning } : {}),
      ...(options?.capabilityOrder ? { capabilityOrder: options.capabilityOrder } : {}),
      ...(options?.learned ? { learned: options.learned } : {}),
    });
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
    this.learning.setRoutes(choice, { text: this.question, options: choice.options });
    if (typeof this.decisionModel.prepare !== 'function' || choice.options.length < 2) return;
    try {
      this.decisionModel.prepare({ text: this.question, options: choice.options });
    } catch (error) {
      this.logger.warn(
        `decision model could not prepare for the routes: ${(error as Error)?.message ?? String(error)}`,
      );
    }
  }

  /** The module's state store: replicas calibrate the target share and learn together. */
  bindRouteState(binding: RouteStateBinding): void {
    this.targetShare?.bindRouteState(binding);
    this.learning.bind(binding.store, binding.scope);
  }

  async route(request: ChatModelRoutingRequest): Promise<ChatModelRoutingResult> {
    const { routes, signal } = request;
    if (routes.length === 1) return ChatModelRoutingResult.route(routes[0].name);
    const input = this.buildInput(request);
    if (input === undefined || routes.length === 0) return this.defaultResult(request);

    const choice = buildChoiceOptions(routes);
    const question: ChoiceQuestion = { text: this.question, options: choice.options };
    const caller = callerAttribute.of(request.attributes);
    // the caller's own learned examples (its feedback) count beside the shared ones
    const decisionRequest: DecisionRequest = { input, question };
    if (signal) decisionRequest.signal = signal;
    if (caller !== undefined) decisionRequest.scope = caller;
    this.learning.syncSoon();
    let scored: ScoredAnswer;
    try {
      const answer = await this.decide(decisionRequest);
      scored = scoreAnswer(answer, choice);
      if (this.targetShare) scored = this.targetShare.choose(scored);
    } catch (error) {
      return this.onDecisionFailure(error, request);
    }
    const taught = this.teacher?.shouldAsk(scored)
      ? await this.askTeacher(scored, decisionRequest, choice)
      : undefined;
    // the teacher's answer is followed as given: it is the one asked when unsure
    const result = taught
      ? ChatModelRoutingResult.route(
          taught.route,
          taught.probabilities ? { probabilities: taught.probabilities } : {},
        )
      : this.select(scored, request);
    const decisionId = this.learning.records.add({
      input,
      route: result.routeName ?? request.defaultRoute ?? scored.route,
      routes: choice.routeNames,
      caller,
      choice,
      question,
    });
    return result.withDecisionId(decisionId);
  }

  /**
   * Feedback on a decision (its id is the answer's `chat_model_decision_id`): it should have
   * chosen `route`. The decision model learns the call's input as an example of that route.
   * Unknown or expired id, another caller's decision, unknown route → DecisionFeedbackException
   * (a RoutingException). The same feedback twice is learned once.
   */
  async feedback(
    decisionId: string,
    route?: string,
    options: DecisionFeedbackOptions = {},
  ): Promise<void> {
    await this.learning.feedback(decisionId, route, options ?? {});
  }

  /** Whether a decision with this id is still on record (within its feedback window). */
  hasDecision(decisionId: string): boolean {
    return this.learning.records.get(decisionId) !== undefined;
  }

  /** What the router learned, per route (option), oldest first: for review, export, status. */
  learnedExamples(): Record<string, LearnedExample[]> {
    return this.learning.exportExamples();
  }

  /** How many learned examples each route has. */
  learnedCounts(): Record<string, number> {
    return this.learning.counts();
  }

  /** How often the teacher was asked; undefined without a teacher. */
  teacherStats(): TeacherStats | undefined {
    return this.teacher?.stats();
  }

  /** Reads the examples other replicas learned now (they are re-read every few seconds anyway). */
  syncLearned(): Promise<void> {
    return this.learning.sync();
  }

  /** The teacher's answer, learned by the decision model; its failure keeps the first answer. */
  protected async askTeacher(
    _first: ScoredAnswer,
    request: DecisionRequest,
    choice: ChoiceOptions,
  ): Promise<ScoredAnswer | undefined> {
    let scored: ScoredAnswer;
    try {
      throwIfAborted(request.signal);
      const ask = () =>
        raceAbort(Promise.resolve(this.teacher!.model.decide(request)), request.signal);
      // a span of its own (`model_router.decision teacher`): traces show which calls asked it
      const tracer = routingTracer();
      const answer = await (tracer ? tracer.decision('teacher', ask) : ask());
      scored = scoreAnswer(answer, choice);
    } catch (error) {
      if (isAbortError(error, request.signal)) throw error;
      const summary = summarizeError(error);
      this.logger.warn(
        logSafe(`Teacher failed (${summary.name}: ${summary.message}); using the first answer`),
      );
      return undefined;
    }
    try {
      await this.learning.learn(
        request.input,
        scored.route,
        { choice, question: request.question },
        {
          source: 'teacher',
          trusted: true,
        },
      );
    } catch (error) {
      this.logger.warn(
        logSafe(`Could not learn the teacher's answer: ${summarizeError(error).message}`),
      );
    }
    return scored;
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
