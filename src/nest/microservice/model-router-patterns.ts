import type { ChatRequest } from '../../core/chat/request.js';

/**
 * The message patterns ModelRouterMicroserviceModule answers on any `@nestjs/microservices`
 * transport, and RemoteChatModel sends.
 */
export const MODEL_ROUTER_PATTERNS = {
  /** A chat call ({@link RemoteChatPayload}) → the ChatResponse. */
  CHAT: 'model-router.chat',
  /** A streamed call ({@link RemoteChatPayload}) → ChatStreamEvents, ending with one `complete`. */
  STREAM: 'model-router.stream',
  /** `{ callId }` (or the bare call id) of a running call → `{ cancelled }`; aborts it on the server. */
  CANCEL: 'model-router.cancel',
  /** `{}` → {@link RemoteModelsReply}: the routers and models the service has. */
  MODELS: 'model-router.models',
  /** `{}` → the HealthReport of ModelRouterHealthIndicator. */
  HEALTH: 'model-router.health',
} as const;

export type ModelRouterPattern = (typeof MODEL_ROUTER_PATTERNS)[keyof typeof MODEL_ROUTER_PATTERNS];

/** What CHAT and STREAM carry: the request and RoutingChatService's call options. */
export interface RemoteChatPayload {
  /** Chosen by the client (a UUID); CANCEL names it. Optional: without it the call cannot be cancelled. */
  callId?: string;
  request: ChatRequest;
  /** The router to use; default: the service's `defaultRouter`. */
  router?: string;
  /** Call attributes, passed to the router and its models' listeners (JSON values only). */
  attributes?: Record<string, unknown>;
  /** The conversation's session key (keeps it on the model that last answered it). */
  session?: string;
}

export interface RemoteCancelPayload {
  callId: string;
}

export interface RemoteCancelReply {
  /** False when no call with that id was running (it finished, or never started here). */
  cancelled: boolean;
}

export interface RemoteModelsReply {
  routers: string[];
  models: string[];
  defaultRouter?: string;
}
