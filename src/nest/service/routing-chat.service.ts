import { Inject, Injectable } from '@nestjs/common';
import { defer, from, map, Observable, tap } from 'rxjs';
import {
  type ChatCallOptions,
  type ChatModel,
  type ChatStreamEvent,
} from '../../core/chat/chat-model.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { abortReason } from '../../core/chat/abort.js';
import { assertChatRequestOnce, checksChatRequests } from '../../core/chat/assert-chat-request.js';
import { streamModel } from '../../core/chat/stream.js';
import { systemClock, type Clock } from '../../core/clock.js';
import type { RoutingEvent, RoutingObserver } from '../../core/observability/routing-event.js';
import { linkAbort } from '../../core/resilience/linked-abort.js';
import { RoutingException } from '../../core/errors/exceptions.js';
import { currentRoutingScope, type RequestRoutingScope } from '../http/request-routing-scope.js';
import type { ChatCallHooks } from '../interceptors/chat-call-hooks.js';
import { ChatInterceptorChain } from '../interceptors/chat-interceptor-chain.js';
import {
  type ChatCallMode,
  ChatInterceptorContext,
} from '../interceptors/chat-interceptor-context.js';
import type { ModelRouterModuleOptions } from '../module/model-router-module-options.js';
import { ModelRouterRegistry } from '../module/model-router-registry.js';
import { MODEL_ROUTER_MODULE_OPTIONS } from '../module/tokens.js';
import { DirectModelChecks } from './direct-model-checks.js';
import { adHocTarget, type AdHocModel } from './ad-hoc-model.js';
import { runHookedChat } from './hooked-chat-call.js';
import { observableFromStream, type StreamFlow } from './observable-from-stream.js';
import { sessionAttribute, routerAttribute } from '../../core/chat/call-attributes.js';
import type { DecisionFeedbackOptions } from '../../core/routing/feedback-router.js';
import { feedbackToRouters, learnedExamplesOf } from './decision-feedback.js';

export interface RoutingChatOptions {
  /**
   * The router to use. Default: the handler's `@UseRouter(name)` when called during an HTTP
   * request through ModelRoutingInterceptor, else the module's `defaultRouter`.
   */
  router?: string;
  /**
   * Calls a model directly instead of a router, still through the interceptors: the model
   * registered under `models.<name>`, or a model of your own with the name events, metrics and
   * headers give it (e.g. a `provider/model-id` model, or a ModelRouter built as an ad-hoc
   * failover list for one request).
   */
  model?: string | AdHocModel;
  signal?: AbortSignal;
  /** Passed to the router (and its models' listeners) with `{ model_router: <router> }` added. */
  attributes?: Record<string, unknown>;
  /**
   * Keeps the conversation on the model that last answered it (per route) for the group's
   * `sessionTtlMs`, unless that model is unavailable: sets the `model_router_session` attribute.
   * Default: the request's `x-model-router-session` header, when ModelRoutingInterceptor runs.
   */
  session?: string;
  /**
   * The HTTP request's routing scope, given by the handler (see openRoutingScope) instead of
   * read from ModelRoutingInterceptor's AsyncLocalStorage: its router and session apply, and the
   * call's record is attached to it. Default: the interceptor's scope, when it runs.
   */
  scope?: RequestRoutingScope;
  /**
   * For `stream`: the consumer's readiness. The next event is read from the router only once
   * `flow.ready()` says so, so a client that does not read holds back the model's stream (its
   * provider connection) instead of the events piling up in memory.
   */
  flow?: StreamFlow;
  /**
   * This call's request, when the caller built it from a body already validated by a schema that
   * implies the ChatRequest shape (the gateway's wire mappings): the service does not check it
   * again, nor do the router and group below. Without it, the service checks the request at its
   * entry, once for all the layers. An option of the call rather than state of the module, so the
   * vouching belongs to this call and this object: an interceptor that replaces the request gets
   * the replacement checked by the router.
   */
  checkedRequest?: ChatRequest;
}

type Target = { routerName?: string; target?: string; servedAs?: string; model: ChatModel };

const records = new WeakMap<RoutingObserver, ChatInterceptorContext>();

/**
 * The context (the record) of the RoutingChatService call that `options` (as a model receives
 * them) belong to, without an AsyncLocalStorage: a model reads the route probability from it.
 */
export function callContextOf(
  options: ChatCallOptions | undefined,
): ChatInterceptorContext | undefined {
  return options?.observer === undefined ? undefined : records.get(options.observer);
}

/** Sends chat requests to the module's routers through the chat interceptor chain. */
@Injectable()
export class RoutingChatService {
  protected readonly clock: Clock;
  /** Models addressed directly, under the checks a group applies to its models. */
  protected readonly direct: DirectModelChecks;

  constructor(
    protected readonly registry: ModelRouterRegistry,
    protected readonly chain: ChatInterceptorChain,
    @Inject(MODEL_ROUTER_MODULE_OPTIONS) options: ModelRouterModuleOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.direct = new DirectModelChecks({
      budgets: registry.budgets,
      store: registry.stateStore,
      clock: this.clock,
    });
  }

  /** Answers `request` with the chosen router. Unknown router → RoutingException. */
  async chat(request: ChatRequest, options: RoutingChatOptions = {}): Promise<ChatResponse> {
    const hooks = this.chain.hooks();
    const response = hooks
      ? await this.chatThroughHooks(hooks, request, options)
      : await this.chatThroughChain(request, options);
    if (!response) {
      throw new RoutingException(
        'The chat interceptor chain completed without a response: an interceptor dropped the complete event',
      );
    }
    return response;
  }

  /** Every interceptor is a built-in one: the call runs as a promise, no Observable per call. */
  protected chatThroughHooks(
    hooks: readonly ChatCallHooks[],
    request: ChatRequest,
    options: RoutingChatOptions,
  ): Promise<ChatResponse> {
    const { context, target, unlink } = this.openCall(
      'chat',
      request,
      options,
      options.scope ?? currentRoutingScope(),
    );
    if (options.signal?.aborted) {
      unlink();
      return Promise.reject(abortReason(options.signal));
    }
    return runHookedChat(
      hooks,
      context,
      options.signal,
      () => {
        context.noteInvoked();
        return target.model
          .chat(context.request, this.callOptions(context, target.model, request))
          .then((response) => {
            context.recordResponse(response);
            return response;
          });
      },
      unlink,
    );
  }

  protected async chatThroughChain(
    request: ChatRequest,
    options: RoutingChatOptions,
  ): Promise<ChatResponse | undefined> {
    let response: ChatResponse | undefined;
    await new Promise<void>((resolve, reject) => {
      this.call('chat', request, options).subscribe({
        next: (event) => {
          if (event.type === 'complete') response = event.response;
        },
        error: reject,
        complete: resolve,
      });
    });
    return response;
  }

  /**
   * Streams the answer: text deltas, tool calls, then exactly one `complete` event. Nothing runs
   * until subscription; unsubscribing aborts the provider call.
   */
  stream(request: ChatRequest, options: RoutingChatOptions = {}): Observable<ChatStreamEvent> {
    return this.call('stream', request, options);
  }

  routerNames(): string[] {
    return this.registry.routerNames();
  }

  /**
   * Feedback on a routing decision (the answer's `chat_model_decision_id`): it should have chosen
   * `route`, or (`quality: 'bad'`) its answer was not good enough. Unknown or expired id, another
   * caller's decision, unknown route → DecisionFeedbackException (a RoutingException).
   */
  feedback(
    decisionId: string,
    route?: string,
    options: DecisionFeedbackOptions = {},
  ): Promise<void> {
    return feedbackToRouters(this.registry, decisionId, route, options);
  }

  /** What each decision router learned, per route (examples, counts, the teacher's share). */
  learnedExamples(): Record<string, unknown> {
    return learnedExamplesOf(this.registry);
  }

  modelNames(): string[] {
    return this.registry.modelNames();
  }

  /** The router a call with these options would use (throws RoutingException when none fits). */
  resolveRouterName(router?: string): string {
    return this.registry.resolveRouter(router ?? currentRoutingScope()?.router).name;
  }

  protected call(
    mode: ChatCallMode,
    request: ChatRequest,
    options: RoutingChatOptions,
  ): Observable<ChatStreamEvent> {
    // read now, not at subscription: an SSE response subscribes outside the request's scope
    const scope = options.scope ?? currentRoutingScope();
    return new Observable<ChatStreamEvent>((subscriber) => {
      const { context, target, controller, unlink } = this.openCall(mode, request, options, scope);
      let settled = false;
      // the caller's abort ends the call at once, even if a model ignores its signal
      const onCallerAbort = () => {
        settled = true;
        subscriber.error(abortReason(options.signal as AbortSignal));
      };
      if (options.signal?.aborted) {
        onCallerAbort();
        return undefined;
      }
      options.signal?.addEventListener('abort', onCallerAbort, { once: true });
      const subscription = this.chain
        .run(context, {
          handle: () => this.invoke(target.model, context, request, options.flow),
        })
        .subscribe({
          next: (event) => subscriber.next(event),
          error: (error: unknown) => {
            settled = true;
            subscriber.error(error);
          },
          complete: () => {
            settled = true;
            subscriber.complete();
          },
        });
      return () => {
        options.signal?.removeEventListener('abort', onCallerAbort);
        unlink();
        subscription.unsubscribe();
        if (!settled) {
          controller.abort(new DOMException('The subscriber unsubscribed', 'AbortError'));
        }
      };
    });
  }

  /** Checks the request, resolves the target, and creates the call's record in the scope. */
  protected openCall(
    mode: ChatCallMode,
    request: ChatRequest,
    options: RoutingChatOptions,
    scope: RequestRoutingScope | undefined,
  ): {
    context: ChatInterceptorContext;
    target: Target;
    controller: AbortController;
    unlink: () => void;
  } {
    // before the interceptors, which read the messages too
    assertChatRequestOnce(request, options);
    const target = this.resolveTarget(options, scope);
    // not AbortSignal.any: it leaks per call under a long-lived caller signal on Node 20/22
    const { controller, signal, unlink } = linkAbort(options.signal);
    const context = new ChatInterceptorContext({
      mode,
      request,
      routerName: target.routerName,
      target: target.target,
      ...(target.servedAs !== undefined ? { servedAs: target.servedAs } : {}),
      attributes: {
        ...options.attributes,
        ...this.sessionAttribute(options, scope),
        ...(target.routerName !== undefined ? routerAttribute.entry(target.routerName) : {}),
      },
      signal,
      clock: this.clock,
    });
    scope?.attach(context);
    return { context, target, controller, unlink };
  }

  /**
   * What the router (or model) is called with. `checked` is the request openCall checked (or the
   * caller vouched for): a router that would check it again is told so; a replacement an
   * interceptor made is not vouched for, and is checked by the router.
   */
  protected callOptions(
    context: ChatInterceptorContext,
    model: ChatModel,
    checked: ChatRequest,
  ): ChatCallOptions {
    const observer = (event: RoutingEvent) => context.notify(event);
    records.set(observer, context);
    const options: ChatCallOptions = {
      signal: context.signal,
      attributes: { ...context.attributes },
      observer,
    };
    if (context.request === checked && checksChatRequests(model)) {
      options.checkedRequest = checked;
    }
    return options;
  }

  /** The innermost handler: the router (or model) itself. */
  protected invoke(
    model: ChatModel,
    context: ChatInterceptorContext,
    checked: ChatRequest,
    flow?: StreamFlow,
  ): Observable<ChatStreamEvent> {
    // checked at the entry; a request an interceptor replaced is checked by the router again
    const callOptions = () => {
      context.noteInvoked();
      return this.callOptions(context, model, checked);
    };
    if (context.mode === 'chat') {
      const answer = defer(() => from(model.chat(context.request, callOptions())));
      return answer.pipe(
        map((response): ChatStreamEvent => {
          context.recordResponse(response);
          return { type: 'complete', response };
        }),
      );
    }
    let completed = false;
    const open = () => streamModel(model, context.request, callOptions());
    return observableFromStream(open, flow).pipe(
      tap({
        next: (event) => {
          context.noteEvent(event);
          if (event.type !== 'complete') return;
          completed = true;
          context.recordResponse(event.response);
        },
        complete: () => {
          // never report a truncated answer as a success
          if (!completed) throw new RoutingException('The stream ended without a complete event');
        },
      }),
    );
  }

  protected resolveTarget(
    options: RoutingChatOptions,
    scope: RequestRoutingScope | undefined,
  ): Target {
    const { model } = options;
    if (model !== undefined) {
      if (options.router !== undefined) {
        throw new RoutingException(
          `Pass either router or model, not both (router '${options.router}', model '${typeof model === 'string' ? model : model.name}')`,
        );
      }
      const [target, chosen] =
        typeof model === 'string' ? [model, this.registry.resolveModel(model)] : adHocTarget(model);
      // no group around it: the checks of a group's model (limits, budgets) apply to it
      return { target, model: this.direct.wrap(target, chosen) };
    }
    const { name, router } = this.registry.resolveRouter(options.router ?? scope?.router);
    const servedAs = this.registry.plainRouterModelName(name);
    return { routerName: name, model: router, ...(servedAs !== undefined ? { servedAs } : {}) };
  }

  /** The session option wins, then the caller's own attribute, then the request's header. */
  protected sessionAttribute(
    options: RoutingChatOptions,
    scope: RequestRoutingScope | undefined,
  ): Record<string, unknown> {
    const { session } = options;
    if (session !== undefined) {
      if (typeof session !== 'string' || session.trim() === '') {
        throw new RoutingException(
          'session must be a non-blank string (a conversation key); got ' +
            (typeof session === 'string' ? 'a blank string' : typeof session),
        );
      }
      return sessionAttribute.entry(session);
    }
    if (sessionAttribute.of(options.attributes) !== undefined || scope?.session === undefined) {
      return {};
    }
    return sessionAttribute.entry(scope.session);
  }
}
