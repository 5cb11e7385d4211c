// nest-model-router/core: the framework-free routing core. Imports nothing from @nestjs/*,
// class-validator or rxjs, so it runs in any Node program.

// Chat types
export type {
  ChatMessage,
  SystemMessage,
  UserMessage,
  AiMessage,
  ToolResultMessage,
  ToolCall,
  ContentPart,
  TextContentPart,
  MediaContentPart,
} from './chat/messages.js';
export {
  systemMessage,
  userMessage,
  aiMessage,
  toolResultMessage,
  userMessageText,
} from './chat/messages.js';
export type {
  ChatRequest,
  ChatRequestParameters,
  ResponseFormat,
  ToolChoice,
  ToolSpecification,
} from './chat/request.js';
export { mergeParameters } from './chat/request.js';
export { REASONING_EFFORTS, type ReasoningEffort } from './chat/request.js';
export {
  totalTokensOf,
  type ChatResponse,
  type TokenUsage,
  type FinishReason,
  type UpstreamInfo,
} from './chat/response.js';
export { Capability } from './chat/capability.js';
export type {
  ChatModel,
  ChatCallOptions,
  ChatStreamEvent,
  ToolCallDeltaEvent,
  ChatModelListener,
  ChatModelListenerContext,
} from './chat/chat-model.js';
export type { InputUsageEvent } from './chat/chat-model.js';
export { BaseChatModel, type BaseChatModelOptions } from './chat/base-chat-model.js';
export { streamModel, streamFromChat, collectStream } from './chat/stream.js';

// Attributes of calls and answers: each key with its one typed accessor (`key.of(attributes)`)
export { attributeKey, type AttributeKey, type Attributes } from './chat/attribute-key.js';
export {
  ROUTE_ATTRIBUTE,
  routeAttribute,
  ROUTER_ATTRIBUTE,
  routerAttribute,
  MODEL_ATTRIBUTE,
  modelAttribute,
  SESSION_ATTRIBUTE,
  sessionAttribute,
  PROBE_ATTRIBUTE,
  probeAttribute,
  isProbeCall,
  REFUSAL_ATTRIBUTE,
  refusalAttribute,
} from './chat/call-attributes.js';
export {
  DECISION_ATTRIBUTE,
  decisionAttribute,
  CALLER_ATTRIBUTE,
  callerAttribute,
} from './chat/call-attributes.js';
export {
  LOGPROBS_ATTRIBUTE,
  logprobsAttribute,
  logprobsOf,
  firstTokenTopLogprobs,
  type TokenLogprob,
  type TopLogprob,
} from './chat/logprobs.js';

// Embeddings
export type {
  EmbeddingModel,
  EmbeddingResult,
  EmbeddingUsage,
  EmbedOptions,
} from './embeddings/embedding-model.js';
export {
  FailoverEmbeddingModel,
  type NamedEmbeddingModel,
} from './embeddings/failover-embedding-model.js';

// Errors
export { isAbortError } from './chat/abort.js';
export {
  ModelRouterException,
  InvalidConfigurationException,
  RoutingException,
  InvalidDecisionResponseException,
  NoMatchingModelFoundException,
} from './errors/exceptions.js';
export { ProviderException, type ProviderExceptionDetails } from './errors/provider-exception.js';
export { ModelTimeoutException, type TimeoutPhase } from './errors/timeout-exception.js';
export { InvalidChatRequestException } from './errors/invalid-chat-request.exception.js';
export { UnknownRouterException } from './errors/unknown-router.exception.js';
export {
  boundedMessage,
  errorAnswer,
  MAX_ANSWER_MESSAGE_LENGTH,
  retryAfterSeconds,
  type ErrorAnswer,
  type ErrorAnswerType,
} from './errors/error-answer.js';

// Resilience
export {
  classifyError,
  dispositionOf,
  kindOfHttpStatus,
  DEFAULT_DISPOSITIONS,
  type ErrorKind,
  type ErrorDisposition,
  type ErrorClassifier,
  type DispositionOverrides,
} from './resilience/error-classification.js';
export {
  parseRetryAfter,
  parseHttpDate,
  retryAfterOf,
  type HeadersLike,
} from './resilience/retry-after.js';
export {
  fullJitterBackoff,
  type Backoff,
  type FullJitterBackoffOptions,
} from './resilience/backoff.js';
export {
  RetryPolicy,
  retryPolicy,
  MAX_ATTEMPTS_LIMIT,
  type RetryPolicyOptions,
  type RetryDecision,
  type RetryDecisionContext,
  type RetryEvent,
  type RetryExecuteOptions,
  type GiveUpReason,
} from './resilience/retry-policy.js';
export {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  type TimeoutOptions,
} from './resilience/timeout-options.js';
export {
  ResilientChatModel,
  withResilience,
  type ResilienceOptions,
} from './resilience/resilient-chat-model.js';
export { IncompleteStreamException } from './resilience/incomplete-stream-exception.js';
export { systemTimers, type Timers } from './resilience/timers.js';

// Observability and state
export { logSafe } from './observability/log-safe.js';
export { scrubCredentials } from './observability/scrub-credentials.js';
export type {
  RoutingEvent,
  RoutingObserver,
  ErrorSummary,
  CircuitState,
  SkipReason,
} from './observability/routing-event.js';
export type {
  InspectableRouting,
  ModelStatus,
  ModelAvailability,
  RouteStateBinding,
} from './inspection/inspection.js';
export { type Clock, systemClock } from './clock.js';
export {
  RouteStateStore,
  CLOSED_CIRCUIT,
  type CircuitRecord,
  type StickyAssignment,
} from './state/route-state-store.js';
export {
  InMemoryRouteStateStore,
  DEFAULT_CIRCUIT_TTL_MS,
  DEFAULT_MAX_CIRCUITS,
  type InMemoryRouteStateStoreOptions,
} from './state/in-memory-route-state-store.js';
export {
  countersOf,
  windowStart,
  windowEnd,
  LocalCounters,
  type CounterStore,
  type CounterWindow,
  type WindowedAdd,
} from './state/counter-store.js';

// Cost, limits, budgets and balancers
export {
  MODEL_PROFILE,
  profileOf,
  validateProfile,
  type ModelProfile,
  type ModelPricing,
  type ModelLimits,
  UNPRICED_UNDER_BUDGET,
  type UnpricedUnderBudget,
} from './cost/model-profile.js';
export {
  COST_ATTRIBUTE,
  costOf,
  costAttributeOf,
  withCost,
  addUsage,
  estimatePromptTokens,
  toNanoUsd,
} from './cost/cost.js';
export { costOfAnswer, costOfResponse } from './cost/response-cost.js';
export { ModelChecks, type ModelChecksOptions, type ModelSkip } from './limits/model-checks.js';
export { RateLimits, type RateClaim } from './limits/rate-limits.js';
export {
  RATE_LIMIT_ATTRIBUTE,
  RATE_LIMIT_HEADERS,
  pickRateLimitHeaders,
  exhaustedUntil,
} from './limits/provider-quota.js';
export {
  BUDGET_PERIODS,
  BUDGET_DIMENSIONS,
  validateBudgets,
  callScopeOf,
  type BudgetDefinition,
  type BudgetPeriod,
  type BudgetScope,
  type BudgetDimension,
} from './budget/budget.js';
export {
  BudgetLedger,
  DEFAULT_RESERVE_OUTPUT_TOKENS,
  type BudgetLedgerOptions,
  type BudgetStatus,
  type SpentBudget,
  type BudgetReservation,
  type ReserveOutcome,
} from './budget/budget-ledger.js';
export { BudgetExceededException } from './errors/budget-exceeded.exception.js';
export { ContextLengthExceededException } from './errors/context-length-exceeded.exception.js';
export { UnpricedModelException } from './errors/unpriced-model.exception.js';
export {
  Balancer,
  OrderedBalancer,
  BALANCERS,
  type BalancerName,
  type BalancerOptions,
} from './strategies/balancers/balancer.js';
export {
  WeightedBalancer,
  type WeightedBalancerOptions,
} from './strategies/balancers/weighted-balancer.js';
export { LeastBusyBalancer } from './strategies/balancers/least-busy-balancer.js';
export {
  LowestLatencyBalancer,
  type LowestLatencyBalancerOptions,
} from './strategies/balancers/lowest-latency-balancer.js';
export {
  LowestCostBalancer,
  type LowestCostBalancerOptions,
} from './strategies/balancers/lowest-cost-balancer.js';
export { createBalancer } from './strategies/balancers/create-balancer.js';

// Decision routing
export {
  DecisionModelChatModelRouter,
  type DecisionModelChatModelRouterOptions,
} from './decision/decision-model-chat-model-router.js';
export { FallbackStrategy, DEFAULT_QUESTION } from './decision/decision-model.js';
export type {
  DecisionModel,
  DecisionRequest,
  DecisionInput,
  ChoiceQuestion,
  ChoiceOption,
  ChoiceAnswer,
  DecisionLogger,
  LearnRequest,
} from './decision/decision-model.js';
export { DecisionFeedbackException, type FeedbackRefusal } from './decision/decision-feedback.js';
export type {
  DecisionFeedbackOptions,
  DecisionQuality,
  LearnsFromFeedback,
} from './routing/feedback-router.js';
export type { LabelledInput } from './decision/decision-learning.js';
export type { LearnedExample, LearnedExamplesOptions } from './decision/learned-examples.js';
export type { DecisionRecordsOptions } from './decision/decision-records.js';
export type { TeacherStats } from './decision/teacher.js';

// Routing
export { ChatModelRoutingResult } from './routing/chat-model-routing-result.js';
export type { RouteDefinition, ChatModelRoute } from './routing/chat-model-route.js';
export type {
  ChatModelRoutingRequest,
  ChatModelRouter,
  ChatModelRouterFunction,
} from './routing/chat-model-router.js';
export {
  RoutingChatModel,
  type RoutingChatModelOptions,
  type RouteSelection,
} from './routing/routing-chat-model.js';
export type { ConfiguredRoute } from './routing/route-validation.js';

// Decision models (the embedded vector model has its own entry: nest-model-router/embedded)
export {
  ChatModelDecisionModel,
  CHAT_MODEL_DECISION_DEFAULTS,
  type ChatModelDecisionModelOptions,
} from './decision/models/chat-model-decision-model.js';
export type { MessageWeights } from './decision/models/decision-input-texts.js';

// Model groups
export { ModelRouter } from './group/model-router.js';
export type { ModelRouterOptions, ModelRouteDefinition } from './group/model-router-options.js';
export { type ChatModelWrapper, wrapModel } from './chat/chat-model-wrapper.js';
export type {
  ModelRoutingStrategy,
  ModelRoutingFunction,
  StrategyCallContext,
  ModelErrorEvent,
  ModelErrorListener,
} from './strategies/model-routing-strategy.js';
export { FailoverStrategy, type FailoverStrategyOptions } from './strategies/failover-strategy.js';
export type { CircuitBreakerOptions } from './circuit/circuit-policy.js';
export {
  LowestTokenUsageRoutingStrategy,
  type LowestTokenUsageOptions,
} from './strategies/lowest-token-usage-routing-strategy.js';
export {
  estimateRequestTokens,
  estimateTextTokens,
  type TokenEstimator,
} from './cost/token-estimate.js';
export { StreamInterruptedException } from './errors/stream-interrupted.exception.js';
export { InvalidModelResponseException } from './group/model-response.js';
export { DEFAULT_SESSION_TTL_MS, sessionStateKey } from './group/session-affinity.js';
export {
  installRoutingTracer,
  routingTracer,
  type RoutingTracer,
  type AttemptTrace,
  type AttemptStart,
  type AttemptAnswer,
  type RoutedCallFacts,
  type TraceCarrier,
} from './observability/tracing.js';

// tail latency and overload (issue 27): learnt deadlines, hedging, adaptive concurrency
export { LatencySketch, type LatencySketchOptions } from './resilience/latency-sketch.js';
export {
  AdaptiveDeadline,
  FIRST_TOKEN_DEADLINE_DEFAULTS,
  IDLE_DEADLINE_DEFAULTS,
  type AdaptiveDeadlineOptions,
} from './resilience/adaptive-deadline.js';
export type { AdaptiveTimeoutOptions, StreamDeadlines } from './resilience/stream-deadlines.js';
export {
  ANSWER_DEADLINE_DEFAULTS,
  MIN_PACED_TOKENS,
  type AnswerDeadline,
} from './resilience/answer-deadline.js';
export { HedgePolicy, type HedgeOptions } from './group/hedge-policy.js';
export { AimdLimit, type ConcurrencyOptions, type LimitOutcome } from './limits/aimd-limit.js';
export {
  ConcurrencyGate,
  concurrencyLimitOf,
  limitConcurrency,
} from './limits/concurrency-gate.js';
export { ConcurrencyLimitException } from './errors/concurrency-limit.exception.js';
export type { WindowPolicy } from './circuit/sliding-window.js';

export {
  BudgetDowngrades,
  checkBudgetFallbacks,
  DOWNGRADED_ATTRIBUTE,
  downgradedAttribute,
  type DowngradeStatus,
  type DowngradeTarget,
} from './budget/budget-downgrade.js';
export { promptPrefixKey, PROMPT_PREFIX_CHARS } from './chat/prompt-prefix.js';
export {
  DEFAULT_AFFINITY_MIN_PROMPT_TOKENS,
  type PromptAffinityOptions,
  type PromptAffinitySetting,
} from './strategies/balancers/prompt-affinity.js';
export {
  TargetShare,
  validateTargetShare,
  DEFAULT_SHARE_WINDOW_MS,
  type TargetShareOptions,
  type TargetShareStatus,
} from './decision/target-share.js';

export {
  type AnswerChunk,
  type CachedAnswer,
  type CacheControl,
  type CacheKeys,
  type CacheLookup,
  type CachePlan,
  type CacheSettings,
  type CacheStats,
  cacheKeys,
  isCompleteAnswer,
  pacedReplay,
  type ReplayPacing,
  ResponseCache,
  type ResponseCacheOptions,
  type ResponseCacheStore,
  semanticGuard,
  SemanticIndex,
} from './cache/index.js';
export {
  CACHE_ATTRIBUTE,
  CACHE_SIMILARITY_ATTRIBUTE,
  type CacheOutcome,
  cacheAttribute,
  cacheSimilarityAttribute,
} from './chat/call-attributes.js';
export {
  type ResponseCacheConfig,
  type RouterCacheConfig,
  durationMs,
  routerCacheSettings,
} from './cache/cache-config.js';

// Learnt latencies and hedge budgets shared through the state store (issue 27)
export { type SketchCounts, type SketchStore, LocalSketches } from './state/sketch-store.js';
export {
  SharedLatencySketch,
  type SharedLatencySketchOptions,
  type SketchBinding,
} from './resilience/shared-latency-sketch.js';
export { HedgeBucket } from './group/hedge-bucket.js';
export {
  estimateInputTokens,
  estimateOutputTokens,
  withEstimatedUsage,
} from './cost/usage-estimate.js';
