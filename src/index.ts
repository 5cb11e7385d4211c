// The public API of nest-model-router. The package's parts have entries of their own:
// `nest-model-router/core` (no Nest needed), `/embedded`, `/providers`, `/redis`, `/metrics`,
// `/testing`, `/microservices`.
// The root exports every part but metrics and testing; the contract of DESIGN.md section 2 is
// named here first, so that a reader sees it at a glance.

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
  type ChatResponse,
  type TokenUsage,
  type ChatCallOptions,
  type ChatModel,
  type ChatStreamEvent,
  type ChatModelListener,
  type ToolChoice,
  type ToolCallDeltaEvent,
} from './core/index.js';

// Routing and decision routing (2.2, 2.3)
export {
  ROUTE_ATTRIBUTE,
  ChatModelRoutingResult,
  RoutingChatModel,
  DecisionModelChatModelRouter,
  FallbackStrategy,
  DEFAULT_QUESTION,
  type RouteDefinition,
  type ChatModelRoute,
  type ChatModelRoutingRequest,
  type ChatModelRouter,
  type DecisionInput,
  type ChoiceQuestion,
  type DecisionRequest,
  type ChoiceAnswer,
  type DecisionModel,
} from './core/index.js';

// Model groups and strategies (2.4)
export {
  ModelRouter,
  FailoverStrategy,
  LowestTokenUsageRoutingStrategy,
  type ChatModelWrapper,
  type ModelRoutingStrategy,
  type ModelErrorEvent,
} from './core/index.js';

// Errors (2.5)
export {
  ModelRouterException,
  InvalidConfigurationException,
  RoutingException,
  NoMatchingModelFoundException,
  InvalidDecisionResponseException,
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
} from './providers/index.js';

// The router as a microservice (2.8); the server side needs @nestjs/microservices (an optional
// peer), also `nest-model-router/microservices`
export {
  MODEL_ROUTER_PATTERNS,
  ModelRouterMicroserviceModule,
  RemoteChatModel,
} from './microservices.js';

// Everything else, part by part
export * from './core/index.js';
export * from './providers/index.js';
export * from './redis/index.js';
export * from './config/index.js';
export * from './nest/index.js';
export * from './microservices.js';
