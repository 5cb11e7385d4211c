import type { ChatModel } from '../../core/chat/chat-model.js';
import type { RequestRoutingScope } from '../../nest/http/request-routing-scope.js';
import type { ChatInterceptorChain } from '../../nest/interceptors/chat-interceptor-chain.js';
import type { ModelRouterRegistry } from '../../nest/module/model-router-registry.js';
import type { Clock } from '../../core/clock.js';
import {
  RoutingChatService,
  type RoutingChatOptions,
} from '../../nest/service/routing-chat.service.js';

/** A model the gateway assembled for one request (a `models` failover list, a provider model). */
export interface AdHocTarget {
  /** How events and the interceptor context name it. */
  name: string;
  model: ChatModel;
}

export interface GatewayChatOptions extends RoutingChatOptions {
  /** Serve the call with this model instead of a registered router or model. */
  target?: AdHocTarget;
}

/**
 * RoutingChatService that can also run a model the gateway built on the fly through the same
 * chat interceptor chain (events, timing, the gateway's own interceptor), so every call of the
 * gateway is observed the same way.
 */
export class GatewayChatService extends RoutingChatService {
  constructor(registry: ModelRouterRegistry, chain: ChatInterceptorChain, clock?: Clock) {
    super(registry, chain, { routers: {}, ...(clock ? { clock } : {}) });
  }

  protected override resolveTarget(
    options: GatewayChatOptions,
    scope: RequestRoutingScope | undefined,
  ): { routerName?: string; modelName?: string; model: ChatModel } {
    if (options.target) return { modelName: options.target.name, model: options.target.model };
    return super.resolveTarget(options, scope);
  }
}
