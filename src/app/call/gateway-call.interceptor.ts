import { Injectable } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { RoutingEvent } from '../../core/observability/routing-event.js';
import type { ChatCallHandler, ChatInterceptor } from '../../nest/interceptors/chat-interceptor.js';
import type { ChatInterceptorContext } from '../../nest/interceptors/chat-interceptor-context.js';
import { currentGatewayCall, GatewayCallScope, runInGatewayCall } from './gateway-call-scope.js';

/**
 * Records what the gateway (and the demo models) want to know about a call from its routing
 * events, in the GatewayCallScope of the call: the controllers open one before calling; any
 * other RoutingChatService call gets its own here. The rest of the chain runs inside the scope,
 * so the models called further down can read it.
 */
@Injectable()
export class GatewayCallInterceptor implements ChatInterceptor {
  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    const scope = currentGatewayCall() ?? new GatewayCallScope();
    context.observe((event) => record(scope, event));
    return new Observable<ChatStreamEvent>((subscriber) =>
      runInGatewayCall(scope, () => next.handle().subscribe(subscriber)),
    );
  }
}

/** The outermost route and the first model to succeed are the ones that served the call. */
function record(scope: GatewayCallScope, event: RoutingEvent): void {
  if (event.type === 'route-selected' && scope.route === undefined) {
    scope.route = event.route;
    scope.probability = event.probabilities?.[event.route];
  } else if (event.type === 'model-succeeded' && scope.succeededModel === undefined) {
    scope.succeededModel = event.model;
  }
}
