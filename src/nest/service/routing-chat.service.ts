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
import { adHocTarget } from './ad-hoc-model.js';
import { callAbort, runHookedChat } from './hooked-chat-call.js';
import { tracedRoutedChat, tracedRoutedStream } from './traced-routed-call.js';
import { observableFromStream, type StreamFlow } from './observable-from-stream.js';
import { sessionAttribute, routerAttribute } from '../../core/chat/call-attributes.js';
import { BudgetDowngrades, type DowngradeStatus } from '../../core/budget/budget-downgrade.js';
import { downgradeTarget } from './downgrade-target.js';
import type { CacheControl } from '../../core/cache/response-cache.js';
import { requestCacheControl } from '../http/open-routing-scope.js';
import type { RoutingChatOptions } from './routing-chat-options.js';
import type { DecisionFeedbackOptions } from '../../core/routing/feedback-router.js';
import { feedbackToRouters, learnedExamplesOf } from './decision-feedback.js';

export type { RoutingChatOptions } from './routing-chat-options.js';

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
  /** Calls a budget refuses go to its `fallback` instead, when it names one. */
  protected readonly downgrades: BudgetDowngrades;

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
    this.downgrades = new BudgetDowngrades(
      registry.budgets,
      (name) => downgradeTarget(name, registry, this.direct),
      this.clock,
    );
  }

  /** Each budget's downgrades to its fallback since start (this replica's), for status pages. */
  downgradeReport(): DowngradeStatus[] {
    return this.downgrades.report();
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
    const scope = options.scope ?? currentRoutingScope();
    const { context, target, unlink } = this.openCall('chat', request, options, scope, false);
    if (options.signal?.aborted) {
      unlink();
      return Promise.reject(abortReason(options.signal));
    }
    return runHookedChat(
      hooks,
      context,
      options.signal,
      () => {
        const answer = () => {
          context.noteInvoked();
          return target.model.chat(
            context.request,
            this.callOptions(context, target.model, request),
          );
        };
        const control = options.cacheControl ?? requestCacheControl(scope?.request);
        const plan = this.registry.cache?.plan(context, control);
        return tracedRoutedChat(context, () =>
          (plan ? this.registry.cache!.chat(context, plan, answer) : answer()).then((response) => {
            context.recordResponse(response);
            return response;
          }),
        );
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
    const control = options.cacheControl ?? requestCacheControl(scope?.request);
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
          handle: () => this.invoke(target.model, context, request, options.flow, control),
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
          controller?.abort(new DOMException('The subscriber unsubscribed', 'AbortError'));
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
    unsubscribable = true,
  ): {
    context: ChatInterceptorContext;
    target: Target;
    controller: AbortController | undefined;
    unlink: () => void;
  } {
    // before the interceptors, which read the messages too
    assertChatRequestOnce(request, options);
    const target = this.resolveTarget(options, scope);
    const { controller, signal, unlink } = callAbort(options.signal, unsubscribable);
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
    cacheControl: CacheControl = 'default',
  ): Observable<ChatStreamEvent> {
    // checked at the entry; a request an interceptor replaced is checked by the router again
    const callOptions = () => {
      context.noteInvoked();
      return this.callOptions(context, model, checked);
    };
    // planned once the interceptors ran: they may name the caller's key or replace the request
    const cache = this.registry.cache;
    const plan = cache?.plan(context, cacheControl);
    if (context.mode === 'chat') {
      const call = () => model.chat(context.request, callOptions());
      // the record has the response before the call span ends (it reads the model and cost there)
      const answer = defer(() =>
        from(
          tracedRoutedChat(context, () =>
            (plan ? cache!.chat(context, plan, call) : call()).then((response) => {
              context.recordResponse(response);
              return response;
            }),
          ),
        ),
      );
      return answer.pipe(map((response): ChatStreamEvent => ({ type: 'complete', response })));
    }
    let completed = false;
    const stream = () => streamModel(model, context.request, callOptions());
    const open = tracedRoutedStream(
      context,
      plan ? () => cache!.stream(context, plan, stream) : stream,
    );
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
      return { target, model: this.downgrades.wrap(this.direct.wrap(target, chosen), target) };
    }
    const { name, router } = this.registry.resolveRouter(options.router ?? scope?.router);
    const servedAs = this.registry.plainRouterModelName(name);
    const downgrading = this.downgrades.wrap(router, name);
    return {
      routerName: name,
      model: downgrading,
      ...(servedAs !== undefined ? { servedAs } : {}),
    };
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
