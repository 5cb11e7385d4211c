// The public API of nest-model-router, exported by name.

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
} from './core/chat/messages.js';
export {
  systemMessage,
  userMessage,
  aiMessage,
  toolResultMessage,
  userMessageText,
} from './core/chat/messages.js';
export type {
  ChatRequest,
  ChatRequestParameters,
  ResponseFormat,
  ToolSpecification,
} from './core/chat/request.js';
export { mergeParameters } from './core/chat/request.js';
export type { ChatResponse, TokenUsage, FinishReason } from './core/chat/response.js';
export { Capability } from './core/chat/capability.js';
export type {
  ChatModel,
  ChatCallOptions,
  ChatStreamEvent,
  ChatModelListener,
  ChatModelListenerContext,
} from './core/chat/chat-model.js';
export { BaseChatModel, type BaseChatModelOptions } from './core/chat/base-chat-model.js';
export { streamModel, streamFromChat, collectStream } from './core/chat/stream.js';

// Errors
export {
  ModelRouterException,
  InvalidConfigurationException,
  RoutingException,
  InvalidDecisionResponseException,
  NoMatchingModelFoundException,
} from './core/errors/exceptions.js';
export {
  ProviderException,
  type ProviderExceptionDetails,
} from './core/errors/provider-exception.js';
export { ModelTimeoutException, type TimeoutPhase } from './core/errors/timeout-exception.js';
export { InvalidChatRequestException } from './core/errors/invalid-chat-request.exception.js';

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
} from './core/resilience/error-classification.js';
export {
  parseRetryAfter,
  parseHttpDate,
  retryAfterOf,
  type HeadersLike,
} from './core/resilience/retry-after.js';
export {
  fullJitterBackoff,
  type Backoff,
  type FullJitterBackoffOptions,
} from './core/resilience/backoff.js';
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
} from './core/resilience/retry-policy.js';
export {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  type TimeoutOptions,
} from './core/resilience/timeout-options.js';
export {
  ResilientChatModel,
  withResilience,
  type ResilienceOptions,
} from './core/resilience/resilient-chat-model.js';
export { IncompleteStreamException } from './core/resilience/incomplete-stream-exception.js';
export { systemTimers, type Timers } from './core/resilience/timers.js';

// Observability and state
export type {
  RoutingEvent,
  RoutingObserver,
  ErrorSummary,
  CircuitState,
} from './core/observability/routing-event.js';
export type {
  InspectableRouting,
  ModelStatus,
  ModelAvailability,
  RouteStateBinding,
} from './core/observability/inspection.js';
export { type Clock, systemClock } from './core/clock.js';
export {
  RouteStateStore,
  CLOSED_CIRCUIT,
  type CircuitRecord,
  type StickyAssignment,
} from './core/state/route-state-store.js';
export { InMemoryRouteStateStore } from './core/state/in-memory-route-state-store.js';

// Decision routing
export {
  DecisionModelChatModelRouter,
  type DecisionModelChatModelRouterOptions,
} from './core/decision/decision-model-chat-model-router.js';
export { FallbackStrategy, DEFAULT_QUESTION } from './core/decision/decision-model.js';
export type {
  DecisionModel,
  DecisionRequest,
  DecisionInput,
  ChoiceQuestion,
  ChoiceOption,
  ChoiceAnswer,
  DecisionLogger,
} from './core/decision/decision-model.js';

// Routing
export { ROUTE_ATTRIBUTE } from './core/routing/route-attribute.js';
export { ChatModelRoutingResult } from './core/routing/chat-model-routing-result.js';
export type { RouteDefinition, ChatModelRoute } from './core/routing/chat-model-route.js';
export type {
  ChatModelRoutingRequest,
  ChatModelRouter,
  ChatModelRouterFunction,
} from './core/routing/chat-model-router.js';
export {
  RoutingChatModel,
  type RoutingChatModelOptions,
  type RouteSelection,
} from './core/routing/routing-chat-model.js';
export type { ConfiguredRoute } from './core/routing/route-validation.js';

// Decision models
export {
  EmbeddedVectorDecisionModel,
  EMBEDDED_VECTOR_DEFAULTS,
  type EmbeddedVectorDecisionModelOptions,
} from './core/decision/models/embedded-vector-decision-model.js';
export {
  ChatModelDecisionModel,
  CHAT_MODEL_DECISION_DEFAULTS,
  type ChatModelDecisionModelOptions,
} from './core/decision/models/chat-model-decision-model.js';
export {
  EmbeddingDecisionModel,
  EMBEDDING_DECISION_DEFAULTS,
  type EmbeddingDecisionModelOptions,
  type EmbeddingScoringOptions,
} from './providers/embeddings/embedding-decision-model.js';
export {
  openAiCompatibleEmbed,
  type EmbedFunction,
  type OpenAiCompatibleEmbeddingsOptions,
} from './providers/embeddings/openai-compatible-embed.js';
export {
  WordVectors,
  loadWordVectors,
  DEFAULT_WORD_VECTORS_FILE,
} from './core/decision/models/word-vectors.js';
export type { WordWeighting } from './core/decision/models/word-vector-embedder.js';
export type { MessageWeights } from './core/decision/models/decision-input-texts.js';
export { openAiEmbeddings, type OpenAiEmbeddingsOptions } from './providers/embeddings/openai-embeddings.js';

// Model groups
export { ModelRouter } from './core/group/model-router.js';
export type {
  ModelRouterOptions,
  ModelRouteDefinition,
} from './core/group/model-router-options.js';
export { type ChatModelWrapper, wrapModel } from './core/group/chat-model-wrapper.js';
export type {
  ModelRoutingStrategy,
  ModelRoutingFunction,
  StrategyCallContext,
  ModelErrorEvent,
  ModelErrorListener,
} from './core/strategies/model-routing-strategy.js';
export {
  FailoverStrategy,
  type FailoverStrategyOptions,
} from './core/strategies/failover-strategy.js';
export type { CircuitBreakerOptions } from './core/circuit/circuit-policy.js';
export {
  LowestTokenUsageRoutingStrategy,
  type LowestTokenUsageOptions,
} from './core/strategies/lowest-token-usage-routing-strategy.js';
export { estimateRequestTokens, type TokenEstimator } from './core/strategies/token-estimate.js';
export { StreamInterruptedException } from './core/group/stream-exceptions.js';
export { InvalidModelResponseException } from './core/group/model-response.js';
export { MODEL_ATTRIBUTE } from './core/group/model-attribute.js';
export { SESSION_ATTRIBUTE } from './core/group/session-attribute.js';
export { DEFAULT_SESSION_TTL_MS, sessionStateKey } from './core/group/session-affinity.js';

// Providers
export {
  OpenAiCompatibleChatModel,
  type OpenAiCompatibleChatModelOptions,
} from './providers/openai/openai-compatible-chat-model.js';
export {
  AnthropicChatModel,
  type AnthropicChatModelOptions,
} from './providers/anthropic/anthropic-chat-model.js';
export {
  LocalDemoChatModel,
  type LocalDemoChatModelOptions,
} from './providers/local/local-demo-chat-model.js';
export {
  LOGPROBS_ATTRIBUTE,
  logprobsOf,
  firstTokenTopLogprobs,
  type TokenLogprob,
  type TopLogprob,
} from './providers/logprobs.js';
export type { MalformedChunkPolicy } from './providers/shared/stream-guards.js';
export {
  toProviderError,
  type ProviderErrorContext,
} from './providers/shared/provider-error-mapper.js';
export { kindOfProviderError } from './providers/shared/error-kind.js';
export { redactSecrets } from './providers/shared/redact.js';

// Redis route state store
export {
  RedisRouteStateStore,
  type RouteStateSharing,
  type RouteStateStatusEvent,
  type RedisRouteStateStoreDescription,
} from './redis/redis-route-state-store.js';
export {
  DEFAULT_KEY_PREFIX,
  type RedisRouteStateStoreOptions,
  type RedisStoreLogger,
} from './redis/redis-route-state-store-options.js';
export { RedisRouteStateStoreException } from './redis/redis-route-state-store-exception.js';
export {
  createRouteStateStore,
  checkRouteStateConfig,
  type RouteStateConfig,
} from './redis/route-state-store-config.js';
export { redactRedisUrl } from './redis/redis-url.js';

// Nest module
export { ModelRouterModule } from './nest/module/model-router.module.js';
export type { ModelRouterModuleAsyncOptions } from './nest/module/model-router-module-definition.js';
export type {
  ModelRouterModuleOptions,
  ModelRouterModuleExtras,
} from './nest/module/model-router-module-options.js';
export {
  getChatModelToken,
  getRouterToken,
  MODEL_ROUTER_MODULE_OPTIONS,
} from './nest/module/tokens.js';
export { InjectChatModel, InjectRouter } from './nest/module/inject.decorators.js';
export {
  ModelRouterRegistry,
  type RouterInspection,
  type RoutingEventSource,
} from './nest/module/model-router-registry.js';
export {
  RoutingChatService,
  type RoutingChatOptions,
} from './nest/service/routing-chat.service.js';
export { ROUTER_ATTRIBUTE } from './nest/service/router-attribute.js';
export { UnknownRouterException } from './nest/service/unknown-router.exception.js';

// Chat interceptors
export type {
  ChatInterceptor,
  ChatCallHandler,
  ChatInterceptorRegistration,
} from './nest/interceptors/chat-interceptor.js';
export {
  ChatInterceptorContext,
  type ChatCallMode,
} from './nest/interceptors/chat-interceptor-context.js';
export {
  ChatInterceptorProvider,
  type ChatInterceptorProviderOptions,
} from './nest/interceptors/chat-interceptor-provider.decorator.js';
export { ChatInterceptorChain } from './nest/interceptors/chat-interceptor-chain.js';
export { EventsChatInterceptor } from './nest/interceptors/events.chat-interceptor.js';
export { TimingChatInterceptor } from './nest/interceptors/timing.chat-interceptor.js';
export { RedactEmailsInterceptor } from './nest/interceptors/redact-emails.interceptor.js';

// Controllers (HTTP)
export {
  ModelRoutingInterceptor,
  ROUTE_HEADER,
  MODEL_HEADER,
  SESSION_HEADER,
} from './nest/http/model-routing.interceptor.js';
export { UseRouter } from './nest/http/use-router.decorator.js';
export { USE_ROUTER_METADATA } from './nest/http/use-router.metadata.js';
export { RequestRoutingScope, currentRoutingScope } from './nest/http/request-routing-scope.js';
export { ModelRouterExceptionFilter } from './nest/http/model-router-exception.filter.js';

// Events
export {
  MODEL_ROUTER_EVENTS,
  STATE_STORE_STATUS_EVENT,
  type ModelRouterEventName,
} from './nest/events/model-router-events.js';
export {
  ModelRouterEvent,
  RouteSelectedEvent,
  RouteFailedEvent,
  FailoverEvent,
  CooldownStartedEvent,
  CooldownEndedEvent,
  RouterExhaustedEvent,
  DecisionFailedEvent,
  StateStoreStatusEvent,
} from './nest/events/model-router-event-payloads.js';
export { ModelRouterEventPublisher } from './nest/events/model-router-event-publisher.js';

// Health
export { ModelRouterHealthIndicator } from './nest/health/model-router-health.indicator.js';
export { ModelRouterHealthModule } from './nest/health/model-router-health.module.js';
export type {
  HealthReport,
  HealthStatus,
  RouterHealth,
  ModelHealth,
  StateStoreHealth,
} from './nest/health/health-report.js';

// Configuration
export {
  modelRouterConfig,
  createModelRouterConfig,
  MODEL_ROUTER_CONFIG_NAMESPACE,
} from './nest/config/model-router-config.factory.js';
export {
  loadModelRouterConfig,
  parseModelRouterConfig,
  DEFAULT_MODEL_ROUTER_CONFIG_PATH,
  MODEL_ROUTER_CONFIG_ENV,
  type LoadModelRouterConfigOptions,
} from './config/load-model-router-config.js';
export { readModelRouterConfigNames } from './config/model-router-config-names.js';
export {
  buildModelRouterOptions,
  type BuildModelRouterOptions,
} from './config/build-model-router-options.js';
export {
  ModelRouterFactories,
  pickSettings,
  type ModelFactory,
  type ModelFactoryContext,
  type ModelTypeOptions,
  type DecisionModelFactory,
  type DecisionModelFactoryContext,
} from './config/model-router-factories.js';
export { defaultModelRouterFactories } from './config/default-model-router-factories.js';
export { registerBuiltinDecisionModelTypes } from './config/builtin-decision-model-factories.js';
export {
  registerProviderModelTypes,
  demoModelFactory,
} from './config/provider-model-factories.js';
export {
  ModelRouterConfig,
  RouterConfig,
  RouteConfig,
  GroupConfig,
  DecisionConfig,
  ModelConfig,
  ProviderConfig,
  FailureWindowConfig,
  GROUP_STRATEGIES,
  type GroupStrategy,
} from './config/model-router-config.js';
export { InvalidModelRouterConfigException } from './config/invalid-model-router-config.exception.js';

// HTTP body validation
export {
  ChatRequestDto,
  ChatMessageDto,
  ChatRequestParametersDto,
  ToolCallDto,
  ToolSpecificationDto,
  ResponseFormatDto,
  JsonSchemaDto,
} from './nest/dto/chat-request.dto.js';
