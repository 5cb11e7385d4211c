import type { ChatRequest } from '../chat/request.js';
import type { RoutingObserver } from '../observability/routing-event.js';
import type { ChatModelRoute } from './chat-model-route.js';
import type { ChatModelRoutingResult } from './chat-model-routing-result.js';

export interface ChatModelRoutingRequest {
  readonly chatRequest: ChatRequest;
  /** The candidate routes, in configuration order. */
  readonly routes: readonly ChatModelRoute[];
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
  /** The route to use when the router has no better answer (a candidate). */
  readonly defaultRoute?: string;
  /** The call's observer, so routers can report what they decided or what failed. */
  readonly observer?: RoutingObserver;
}

export type ChatModelRouterFunction = (
  request: ChatModelRoutingRequest,
) => ChatModelRoutingResult | Promise<ChatModelRoutingResult>;

export interface ChatModelRouter {
  route(request: ChatModelRoutingRequest): ChatModelRoutingResult | Promise<ChatModelRoutingResult>;
  /** Called once by RoutingChatModel's constructor with every configured route. */
  validate?(routes: readonly ChatModelRoute[]): void;
}
