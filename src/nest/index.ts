// The Nest module: ModelRouterModule, RoutingChatService, interceptors, events, health, dto.

// Nest module
export { ModelRouterModule } from './module/model-router.module.js';
export type { ModelRouterModuleAsyncOptions } from './module/model-router-module-definition.js';
export type {
  ModelRouterModuleOptions,
  ModelRouterModuleExtras,
} from './module/model-router-module-options.js';
export { getChatModelToken, getRouterToken, MODEL_ROUTER_MODULE_OPTIONS } from './module/tokens.js';
export { InjectChatModel, InjectRouter } from './module/inject.decorators.js';
export {
  ModelRouterRegistry,
  type RouterInspection,
  type RoutingEventSource,
} from './module/model-router-registry.js';
export {
  RoutingChatService,
  callContextOf,
  type RoutingChatOptions,
} from './service/routing-chat.service.js';
export type { AdHocModel } from './service/ad-hoc-model.js';
export type { StreamFlow } from './service/observable-from-stream.js';

// Chat interceptors
export type {
  ChatInterceptor,
  ChatCallHandler,
  ChatInterceptorRegistration,
} from './interceptors/chat-interceptor.js';
export type { ChatCallHooks, ChatCallEnd } from './interceptors/chat-call-hooks.js';
export {
  ChatInterceptorContext,
  type ChatCallMode,
  type ServedBy,
} from './interceptors/chat-interceptor-context.js';
export {
  ChatInterceptorProvider,
  type ChatInterceptorProviderOptions,
} from './interceptors/chat-interceptor-provider.decorator.js';
export { ChatInterceptorChain } from './interceptors/chat-interceptor-chain.js';
export { EventsChatInterceptor } from './interceptors/events.chat-interceptor.js';
export { TimingChatInterceptor } from './interceptors/timing.chat-interceptor.js';
export { RedactEmailsInterceptor } from './interceptors/redact-emails.interceptor.js';

// Controllers (HTTP)
export {
  ModelRoutingInterceptor,
  ROUTE_HEADER,
  MODEL_HEADER,
  SESSION_HEADER,
} from './http/model-routing.interceptor.js';
export { DECISION_HEADER } from './http/open-routing-scope.js';
export { UseRouter } from './http/use-router.decorator.js';
export { USE_ROUTER_METADATA } from './http/use-router.metadata.js';
export {
  RequestRoutingScope,
  currentRoutingScope,
  currentCall,
  routingScopeOf,
  httpRequestOfCall,
} from './http/request-routing-scope.js';
export {
  openRoutingScope,
  requestSession,
  writeServedHeaders,
  type ServedHeaders,
} from './http/open-routing-scope.js';
export { ModelRouterExceptionFilter } from './http/model-router-exception.filter.js';

// Events
export {
  MODEL_ROUTER_EVENTS,
  STATE_STORE_STATUS_EVENT,
  type ModelRouterEventName,
} from './events/model-router-events.js';
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
} from './events/model-router-event-payloads.js';
export { ModelRouterEventPublisher } from './events/model-router-event-publisher.js';
export {
  MODEL_ROUTER_COST_EVENTS,
  ModelCostEvent,
  ModelSkippedEvent,
  BudgetEvent,
  type ModelRouterCostEventName,
} from './events/cost-events.js';

// Health
export { ModelRouterHealthIndicator } from './health/model-router-health.indicator.js';
export { ModelRouterHealthModule } from './health/model-router-health.module.js';
export type {
  HealthReport,
  HealthStatus,
  RouterHealth,
  ModelHealth,
  StateStoreHealth,
} from './health/health-report.js';

// Configuration
export {
  buildModelRouterOptions,
  type BuildModelRouterOptions,
} from './config/build-model-router-options.js';
export {
  modelRouterConfig,
  createModelRouterConfig,
  MODEL_ROUTER_CONFIG_NAMESPACE,
} from './config/model-router-config.factory.js';

// HTTP body validation
export {
  JsonBodyValidationPipe,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_REPORTED_PROBLEMS,
} from './dto/json-body-validation.pipe.js';
export {
  bodyBoundsProblem,
  assertBoundedJsonObject,
  DEFAULT_MAX_ARRAY_LENGTH,
  DEFAULT_MAX_VALUES,
  type JsonBodyBounds,
} from './dto/json-body-bounds.js';
export { MAX_JSON_DEPTH, pathDeeperThan } from './dto/json-depth.js';
export {
  ChatRequestDto,
  ChatMessageDto,
  ChatRequestParametersDto,
  ToolCallDto,
  ToolSpecificationDto,
  ResponseFormatDto,
  JsonSchemaDto,
} from './dto/chat-request.dto.js';

// Status (GET /router/status and the live page GET /status)
export {
  ModelRouterStatusModule,
  type ModelRouterStatusModuleOptions,
} from './status/model-router-status.module.js';
export { ModelRouterStatus, type StatusSection } from './status/model-router-status.js';
export type {
  RouterStatusReport,
  RouterStatusEntry,
  RouteStatusEntry,
  ModelStatusEntry,
  BudgetStatusEntry,
  StatusSources,
} from './status/status-report.js';
export type { RecentFailover } from './status/status-window.js';
export { MODEL_ROUTER_CACHE_EVENTS, CacheLookupEvent } from './events/cache-events.js';
export { CACHE_HEADER, CACHE_SIMILARITY_HEADER } from './http/open-routing-scope.js';
export { MemoryResponseCacheStore } from './cache/memory-response-cache-store.js';
