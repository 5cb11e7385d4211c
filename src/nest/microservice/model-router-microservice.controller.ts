import {
  Controller,
  Inject,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { from, map, Observable } from 'rxjs';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { registryHealthReport, type HealthReport } from '../health/health-report.js';
import { RequestRoutingScope, runInRoutingScope } from '../http/request-routing-scope.js';
import { ModelRouterRegistry } from '../module/model-router-registry.js';
import { RoutingChatService } from '../service/routing-chat.service.js';
import { context, messagePattern, payload, requireMicroservices } from './load-microservices.js';
import {
  MODEL_ROUTER_PATTERNS,
  type RemoteCancelReply,
  type RemoteModelsReply,
} from './model-router-patterns.js';
import { toRemoteError } from './remote-error-codec.js';
import { validateCancelPayload, validateChatPayload } from './remote-payload-validation.js';
import { connectionOf, type RunningCall, RunningCalls } from './running-calls.js';
import {
  routeAttribute,
  modelAttribute,
  routerAttribute,
} from '../../core/chat/call-attributes.js';

const SHUTDOWN_REASON = 'The model router service is shutting down';

/**
 * The handlers of MODEL_ROUTER_PATTERNS. Every call goes through RoutingChatService (so chat
 * interceptors, events, metrics and health see it as any other call), under an id the client
 * may cancel. Errors leave as RpcException data (see remote-error-codec.ts), never as a stack.
 */
@Controller()
export class ModelRouterMicroserviceController
  implements OnModuleInit, OnModuleDestroy, OnApplicationShutdown
{
  private service: RoutingChatService | undefined;
  private registry: ModelRouterRegistry | undefined;

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(RunningCalls) private readonly calls: RunningCalls,
  ) {}

  onModuleInit(): void {
    try {
      // strict: false finds ModelRouterModule whether it is global or imported beside this module
      this.service = this.moduleRef.get(RoutingChatService, { strict: false });
      this.registry = this.moduleRef.get(ModelRouterRegistry, { strict: false });
    } catch {
      throw new InvalidConfigurationException(
        'ModelRouterMicroserviceModule needs ModelRouterModule: import ModelRouterModule.forRoot(...) or forRootAsync(...) beside it',
      );
    }
  }

  /** The transport may already be closed: the provider calls still end, not just the replies. */
  onModuleDestroy(): void {
    this.calls.abortAll(SHUTDOWN_REASON);
  }

  onApplicationShutdown(): void {
    this.calls.abortAll(SHUTDOWN_REASON);
  }

  @messagePattern(MODEL_ROUTER_PATTERNS.CHAT)
  chat(@payload() data: unknown, @context() rpc?: unknown): Observable<ChatResponse> {
    return this.run(MODEL_ROUTER_PATTERNS.CHAT, data, rpc, (call, valid, scope) =>
      from(
        runInRoutingScope(scope, () =>
          this.routing().chat(valid.request, this.optionsOf(valid, call)),
        ),
      ).pipe(map((response) => this.withServed(response, scope, valid.router))),
    );
  }

  @messagePattern(MODEL_ROUTER_PATTERNS.STREAM)
  stream(@payload() data: unknown, @context() rpc?: unknown): Observable<ChatStreamEvent> {
    return this.run(MODEL_ROUTER_PATTERNS.STREAM, data, rpc, (call, valid, scope) =>
      runInRoutingScope(scope, () =>
        this.routing().stream(valid.request, this.optionsOf(valid, call)),
      ).pipe(
        map((event): ChatStreamEvent =>
          event.type === 'complete'
            ? { ...event, response: this.withServed(event.response, scope, valid.router) }
            : event,
        ),
      ),
    );
  }

  @messagePattern(MODEL_ROUTER_PATTERNS.CANCEL)
  cancel(@payload() data: unknown): RemoteCancelReply {
    try {
      return {
        cancelled: this.calls.cancel(validateCancelPayload(MODEL_ROUTER_PATTERNS.CANCEL, data)),
      };
    } catch (error) {
      throw this.rpcError(error);
    }
  }

  @messagePattern(MODEL_ROUTER_PATTERNS.MODELS)
  models(): RemoteModelsReply {
    const routing = this.routing();
    const defaultRouter = this.inspection().defaultRouter;
    return {
      routers: routing.routerNames(),
      models: routing.modelNames(),
      ...(defaultRouter !== undefined ? { defaultRouter } : {}),
    };
  }

  /** The same report as ModelRouterHealthIndicator, without Terminus. */
  @messagePattern(MODEL_ROUTER_PATTERNS.HEALTH)
  health(): HealthReport {
    const registry = this.inspection();
    return registryHealthReport(registry);
  }

  /**
   * Validates, registers the call, runs it, forgets it when it settles. Unsubscribing before
   * then (a transport that closes the reply stream) aborts it.
   */
  private run<T>(
    pattern: string,
    data: unknown,
    rpc: unknown,
    execute: (
      call: RunningCall,
      valid: ReturnType<typeof validateChatPayload>,
      scope: RequestRoutingScope,
    ) => Observable<T>,
  ): Observable<T> {
    return new Observable<T>((subscriber) => {
      let call: RunningCall | undefined;
      let settled = false;
      const settle = () => {
        settled = true;
        call?.release();
      };
      try {
        const valid = validateChatPayload(pattern, data);
        call = this.calls.start(valid.callId, connectionOf(rpc));
        // the route and model that served the call are recorded here, as for an HTTP request
        const scope = new RequestRoutingScope(undefined);
        const subscription = execute(call, valid, scope).subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => {
            settle();
            subscriber.error(this.rpcError(error));
          },
          complete: () => {
            settle();
            subscriber.complete();
          },
        });
        return () => {
          subscription.unsubscribe();
          if (!settled && call) this.calls.cancel(call.id);
          call?.release();
        };
      } catch (error) {
        settle();
        subscriber.error(this.rpcError(error));
        return undefined;
      }
    });
  }

  private optionsOf(valid: ReturnType<typeof validateChatPayload>, call: RunningCall) {
    return {
      signal: call.signal,
      ...(valid.router !== undefined ? { router: valid.router } : {}),
      ...(valid.attributes !== undefined ? { attributes: valid.attributes } : {}),
      ...(valid.session !== undefined ? { session: valid.session } : {}),
    };
  }

  /** The response with the router, route and model that served it in its AI message's attributes. */
  private withServed(
    response: ChatResponse,
    scope: RequestRoutingScope,
    router: string | undefined,
  ): ChatResponse {
    const answered = response.aiMessage.attributes;
    const route = routeAttribute.of(answered) ?? scope.route;
    const model = modelAttribute.of(answered) ?? scope.model;
    const attributes: Record<string, unknown> = {
      ...answered,
      ...routerAttribute.entry(this.routing().resolveRouterName(router)),
      ...(route !== undefined ? routeAttribute.entry(route) : {}),
      ...(model !== undefined ? modelAttribute.entry(model) : {}),
    };
    return { ...response, aiMessage: { ...response.aiMessage, attributes } };
  }

  private rpcError(error: unknown): Error {
    return new (requireMicroservices().RpcException)(toRemoteError(error));
  }

  private routing(): RoutingChatService {
    if (!this.service) this.onModuleInit();
    return this.service!;
  }

  private inspection(): ModelRouterRegistry {
    if (!this.registry) this.onModuleInit();
    return this.registry!;
  }
}
