// The public API of nest-model-router, exported by name: the contract of DESIGN.md section 2, then
// what a Nest app uses. Each part has an entry of its own with the rest of it:
// `nest-model-router/core` (the framework-free router, no peer needed), `/embedded` (the offline
// decision model and its knobs), `/providers`, `/config` (the YAML and its factories), `/redis`
// (ioredis), `/metrics` (prom-client), `/testing`, `/microservices`. Nothing here needs an optional
// peer, at run time or in the typings: a test (test/unit/package/public-surface.spec.ts) holds the
// root to at most 120 runtime names and type-checks it without ioredis under `skipLibCheck: false`.

// Chat types (DESIGN.md 2.1)
export {
  systemMessage,
  userMessage,
  aiMessage,
  toolResultMessage,
  Capability,
  type ChatMessage,
  type SystemMessage,
  type UserMessage,
  type AiMessage,
  type ToolResultMessage,
  type ToolCall,
  type ContentPart,
  type ChatRequest,
  type ChatRequestParameters,
  type ResponseFormat,
  type ToolSpecification,
  type ChatResponse,
  type TokenUsage,
  type FinishReason,
  type ChatCallOptions,
  type ChatModel,
  type ChatStreamEvent,
  type ChatModelListener,
  type ChatModelListenerContext,
  type ToolChoice,
  type ToolCallDeltaEvent,
} from './core/index.js';

// Routing and decision routing (2.2, 2.3)
export {
  ROUTE_ATTRIBUTE,
  ROUTER_ATTRIBUTE,
  ChatModelRoutingResult,
  RoutingChatModel,
  DecisionModelChatModelRouter,
  FallbackStrategy,
  DEFAULT_QUESTION,
  type RouteDefinition,
  type ChatModelRoute,
  type ChatModelRoutingRequest,
  type ChatModelRouter,
  type ChatModelRouterFunction,
  type RoutingChatModelOptions,
  type DecisionModelChatModelRouterOptions,
  type LearnRequest,
  type DecisionFeedbackOptions,
  type DecisionInput,
  type ChoiceQuestion,
  type ChoiceOption,
  type DecisionRequest,
  type ChoiceAnswer,
  type DecisionModel,
  type DecisionLogger,
} from './core/index.js';

// Model groups and strategies (2.4)
export {
  ModelRouter,
  FailoverStrategy,
  LowestTokenUsageRoutingStrategy,
  type ChatModelWrapper,
  type ModelRouterOptions,
  type ModelRouteDefinition,
  type ModelRoutingStrategy,
  type ModelRoutingFunction,
  type ModelErrorEvent,
  type ModelErrorListener,
  type FailoverStrategyOptions,
  type LowestTokenUsageOptions,
  type CircuitBreakerOptions,
} from './core/index.js';

// Errors (2.5), and the ones a caller of a provider or a budget meets
export {
  ModelRouterException,
  InvalidConfigurationException,
  RoutingException,
  NoMatchingModelFoundException,
  InvalidDecisionResponseException,
  ProviderException,
  ModelTimeoutException,
  InvalidChatRequestException,
  UnknownRouterException,
  BudgetExceededException,
  ContextLengthExceededException,
  UnpricedModelException,
  StreamInterruptedException,
  type ProviderExceptionDetails,
} from './core/index.js';

// Nest (2.6)
export {
  ModelRouterModule,
  getChatModelToken,
  getRouterToken,
  InjectChatModel,
  InjectRouter,
  RoutingChatService,
  ModelRoutingInterceptor,
  UseRouter,
  MODEL_ROUTER_EVENTS,
  ModelRouterHealthIndicator,
  ModelRouterHealthModule,
  type ModelRouterModuleOptions,
  type ModelRouterModuleAsyncOptions,
  type ModelRouterModuleExtras,
  type ChatInterceptor,
} from './nest/index.js';

// Providers and decision models (2.7)
export { ChatModelDecisionModel } from './core/index.js';
export {
  EmbeddedVectorDecisionModel,
  type EmbeddedVectorDecisionModelOptions,
} from './embedded/index.js';
export {
  OpenAiCompatibleChatModel,
  AnthropicChatModel,
  EmbeddingDecisionModel,
  LocalDemoChatModel,
  type OpenAiCompatibleChatModelOptions,
  type AnthropicChatModelOptions,
  type LocalDemoChatModelOptions,
} from './providers/index.js';

// The router as a microservice (2.8); the server side needs @nestjs/microservices (an optional
// peer, loaded only when the module is used); the rest is in `nest-model-router/microservices`
export {
  MODEL_ROUTER_PATTERNS,
  ModelRouterMicroserviceModule,
  RemoteChatModel,
  RemoteModelRouterException,
  type RemoteChatModelOptions,
} from './microservices.js';

// A Nest app: the registry, the service's options, controllers and their headers
export {
  MODEL_ROUTER_MODULE_OPTIONS,
  ModelRouterRegistry,
  ModelRouterExceptionFilter,
  ROUTE_HEADER,
  MODEL_HEADER,
  SESSION_HEADER,
  openRoutingScope,
  currentCall,
  httpRequestOfCall,
  callContextOf,
  type RoutingChatOptions,
  type StreamFlow,
  type RequestRoutingScope,
  type AdHocModel,
  type RouterInspection,
  type ServedHeaders,
} from './nest/index.js';

// Chat interceptors
export {
  ChatInterceptorContext,
  ChatInterceptorProvider,
  EventsChatInterceptor,
  TimingChatInterceptor,
  RedactEmailsInterceptor,
  type ChatCallHandler,
  type ChatInterceptorRegistration,
  type ChatCallHooks,
  type ChatCallEnd,
  type ChatCallMode,
  type ServedBy,
  type ChatInterceptorProviderOptions,
} from './nest/index.js';

// Bodies: the module's DTO and pipe, and the bounds for an app that checks bodies of its own
export {
  ChatRequestDto,
  JsonBodyValidationPipe,
  assertBoundedJsonObject,
  MAX_REPORTED_PROBLEMS,
  MAX_ERROR_MESSAGE_LENGTH,
  type JsonBodyBounds,
} from './nest/index.js';

// Events and their payloads
export {
  STATE_STORE_STATUS_EVENT,
  MODEL_ROUTER_COST_EVENTS,
  ModelRouterEvent,
  RouteSelectedEvent,
  RouteFailedEvent,
  FailoverEvent,
  CooldownStartedEvent,
  CooldownEndedEvent,
  RouterExhaustedEvent,
  DecisionFailedEvent,
  StateStoreStatusEvent,
  ModelCostEvent,
  ModelSkippedEvent,
  BudgetEvent,
  type ModelRouterEventName,
  type ModelRouterCostEventName,
} from './nest/index.js';

// Health
export type {
  HealthReport,
  HealthStatus,
  RouterHealth,
  ModelHealth,
  StateStoreHealth,
} from './nest/index.js';

// Configuration from YAML (the factories and the schema's parts are in `nest-model-router/config`)
export {
  buildModelRouterOptions,
  modelRouterConfig,
  createModelRouterConfig,
  MODEL_ROUTER_CONFIG_NAMESPACE,
  type BuildModelRouterOptions,
} from './nest/index.js';
export {
  loadModelRouterConfig,
  parseModelRouterConfig,
  readModelRouterConfigNames,
  InvalidModelRouterConfigException,
  type ModelRouterConfig,
  type LoadModelRouterConfigOptions,
} from './config/index.js';

// Route state shared between replicas: in memory, or in Redis (ioredis, an optional peer, is
// loaded when a Redis store connects; the typings do not need it)
export {
  RouteStateStore,
  InMemoryRouteStateStore,
  type InMemoryRouteStateStoreOptions,
  type Clock,
} from './core/index.js';
export {
  RedisRouteStateStore,
  type RedisRouteStateStoreOptions,
  type RouteStateSharing,
} from './redis/index.js';

// Writing a model of one's own, and resilience around any model
export {
  BaseChatModel,
  withResilience,
  type BaseChatModelOptions,
  type ResilienceOptions,
} from './core/index.js';

// AI SDK language models behind routes, and any ChatModel as an AI SDK language model (only the
// types of @ai-sdk/provider: the root loads without `ai` or `@ai-sdk/*` installed)
export {
  AiSdkChatModel,
  toAiSdkLanguageModel,
  type AiSdkChatModelOptions,
  type AiSdkLanguageModel,
  type AiSdkLanguageModelV3,
  type ToAiSdkLanguageModelOptions,
} from './ai-sdk/index.js';
// Status (2.10): GET /router/status and the live page GET /status, mounted with one import
export {
  ModelRouterStatusModule,
  ModelRouterStatus,
  type ModelRouterStatusModuleOptions,
  type StatusSection,
  type RouterStatusReport,
  type RouterStatusEntry,
  type RouteStatusEntry,
  type ModelStatusEntry,
  type BudgetStatusEntry,
  type StatusSources,
  type RecentFailover,
} from './nest/index.js';
// The response cache (DESIGN 2.11): configured through the module's `cache` option
export type { CacheLookupEvent } from './nest/index.js';
export type {
  CacheOutcome,
  CacheStats,
  ResponseCacheConfig,
  ResponseCacheStore,
  RouterCacheConfig,
} from './core/index.js';
