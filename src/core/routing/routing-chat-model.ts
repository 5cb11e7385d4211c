import { raceAbort, settlesOnAbort, streamSettlesOnAbort, throwIfAborted } from '../chat/abort.js';
import { abortable } from '../chat/abortable-stream.js';
import {
  assertChatRequestOnce,
  type ChecksChatRequests,
  checksChatRequests,
} from '../chat/assert-chat-request.js';
import { capabilitiesOf, type Capability } from '../chat/capability.js';
import type { ChatCallOptions, ChatModel, ChatStreamEvent } from '../chat/chat-model.js';
import type { ChatRequest, ChatRequestParameters } from '../chat/request.js';
import type { ChatResponse } from '../chat/response.js';
import { streamModel } from '../chat/stream.js';
import { RoutingException } from '../errors/exceptions.js';
import {
  isInspectableRouting,
  shareLatencyOf,
  type InspectableRouting,
  type ModelStatus,
  type RouteStateBinding,
} from '../inspection/inspection.js';
import { emitTo, type RoutingEvent, type RoutingObserver } from '../observability/routing-event.js';
import type { ChatModelRoute, RouteDefinition } from './chat-model-route.js';
import type {
  ChatModelRouter,
  ChatModelRouterFunction,
  ChatModelRoutingRequest,
} from './chat-model-router.js';
import type { ChatModelRoutingResult } from './chat-model-routing-result.js';
import { candidateRoutes, requiredCapabilities } from './route-capabilities.js';
import { withRouteAttribute } from './route-response.js';
import {
  validateDefaultRoute,
  validateRouteDefinitions,
  type ConfiguredRoute,
} from './route-validation.js';
import {
  normalizeRouter,
  type NormalizedRouter,
  type RouteShareStatus,
} from './router-invocation.js';
import { resolveRoutingResult } from './routing-result-resolution.js';
import { toolLoopRouteName } from './tool-loop-route.js';
import { routeAttribute } from '../chat/call-attributes.js';
import { learnsFromFeedback, type LearnsFromFeedback } from './feedback-router.js';

export interface RoutingChatModelOptions {
  routes: RouteDefinition[];
  /** Picks a route per request; a bare function `(request) => result` works too. */
  router: ChatModelRouter | ChatModelRouterFunction;
  /** The route used when the router answers `ChatModelRoutingResult.defaultRoute()`. */
  defaultRoute: string;
}

/** The route chosen for one call, and how. */
export interface RouteSelection {
  readonly route: ConfiguredRoute;
  readonly isDefaultRoute: boolean;
  /** Chosen by the tool loop's route attribute; the router was not asked. */
  readonly sticky: boolean;
  readonly probabilities?: Readonly<Record<string, number>>;
  /** The router's decision id, when it gives one (feedback names it). */
  readonly decisionId?: string;
}

/**
 * A ChatModel that asks a router which route should serve each request, then calls that route's
 * model. The answer carries the route's name (`chat_model_route`) so a tool loop comes back to
 * the same route.
 */
export class RoutingChatModel implements ChatModel, InspectableRouting, ChecksChatRequests {
  readonly checksChatRequests = true as const;
  private readonly configuredRoutes: readonly ConfiguredRoute[];
  /** Every route as routers see it, built once: most calls offer the router all of them. */
  private readonly views: readonly ChatModelRoute[];
  private readonly routesByName: ReadonlyMap<string, ConfiguredRoute>;
  private readonly defaultRouteName: string;
  private readonly router: NormalizedRouter;
  /** The router as given: it may take feedback or share state (DecisionModelChatModelRouter). */
  private readonly givenRouter: unknown;
  /** Names of the module's registered models, given at start-up (see `singleModelName`). */
  private modelNames: ReadonlyMap<ChatModel, string> | undefined;

  constructor(options: RoutingChatModelOptions) {
    const given: Partial<RoutingChatModelOptions> = options ?? {};
    this.configuredRoutes = Object.freeze(validateRouteDefinitions(given.routes));
    this.views = Object.freeze(this.configuredRoutes.map((route) => route.view));
    this.routesByName = new Map(this.configuredRoutes.map((route) => [route.name, route]));
    this.defaultRouteName = validateDefaultRoute(given.defaultRoute, this.configuredRoutes);
    this.router = normalizeRouter(given.router);
    this.givenRouter = given.router;
    this.router.validate?.(this.routes());
  }

  /** Every configured route as routers see it, in configuration order. */
  routes(): ChatModelRoute[] {
    return this.configuredRoutes.map((route) => route.view);
  }

  /** The configured default route's name. */
  defaultRoute(): string {
    return this.defaultRouteName;
  }

  /** The model serving `name`, or undefined when there is no such route. */
  routeModel(name: string): ChatModel | undefined {
    return this.routesByName.get(name)?.model;
  }

  supportedCapabilities(): ReadonlySet<Capability> {
    const union = new Set<Capability>();
    for (const route of this.configuredRoutes) {
      for (const capability of capabilitiesOf(route.model)) union.add(capability);
    }
    return union;
  }

  /** Each route's model applies its own defaults; the router adds none. */
  defaultRequestParameters(): ChatRequestParameters {
    return {};
  }

  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ChatResponse> {
    const { route, decisionId } = await this.selectRoute(request, options);
    const call = async () =>
      route.model.chat(request, this.modelCallOptions(route, options, request));
    // a route model that settles on the caller's abort (a group) races it already
    const response = await (settlesOnAbort(route.model)
      ? call()
      : raceAbort(call(), options.signal));
    return withRouteAttribute(response, route.name, decisionId);
  }

  async *stream(
    request: ChatRequest,
    options: ChatCallOptions = {},
  ): AsyncGenerator<ChatStreamEvent> {
    const { route, decisionId } = await this.selectRoute(request, options);
    const source = streamModel(
      route.model,
      request,
      this.modelCallOptions(route, options, request),
    );
    // a route model whose stream settles on the caller's abort (a group) races each read already
    const events = streamSettlesOnAbort(route.model) ? source : abortable(source, options.signal);
    for await (const event of events) {
      if (event.type === 'complete') {
        yield {
          type: 'complete',
          response: withRouteAttribute(event.response, route.name, decisionId),
        };
        return;
      }
      yield event;
    }
    throw new RoutingException(
      `The stream of route '${route.name}' ended without a complete event, so the answer may be ` +
        "truncated; the route's model must end every stream with { type: 'complete', response }.",
    );
  }

  inspectModels(): ModelStatus[] {
    return this.configuredRoutes.flatMap((route): ModelStatus[] => {
      // a model serving a route alone has no circuit: it is there, and always available
      if (!isInspectableRouting(route.model)) {
        return [
          {
            model: this.singleModelName(route)!,
            route: route.name,
            state: 'available',
            failures: 0,
          },
        ];
      }
      // a nested RoutingChatModel already named its own (inner) route: the innermost route names
      // the model group the model belongs to, so it is kept
      return route.model
        .inspectModels()
        .map((status) => (status.route === undefined ? { ...status, route: route.name } : status));
    });
  }

  /** Each route with a target share: the share it got (empty when the router sets none). */
  routeShares(): readonly RouteShareStatus[] {
    return this.router.routeShares?.() ?? [];
  }

  bindRouteState(binding: RouteStateBinding): void {
    if (binding.modelNames !== undefined) this.modelNames = binding.modelNames;
    // a router with state of its own (a decision router's target share and learned examples)
    this.router.bindRouteState?.({ ...binding, scope: `${binding.scope}#router` });
    for (const route of this.configuredRoutes) {
      const model = route.model as Partial<InspectableRouting>;
      if (typeof model.bindRouteState === 'function') {
        model.bindRouteState({ ...binding, scope: `${binding.scope}/${route.name}` });
      }
      // a route served by one model alone still shares its learnt waits (ResilientChatModel)
      shareLatencyOf(route.model, { store: binding.store, clock: binding.clock });
    }
  }

  /**
   * Events the route models notice outside any call (a cooldown ending seen by a health check),
   * tagged with the route when they do not name one. Returns the unsubscribe function.
   */
  onEvent(listener: RoutingObserver): () => void {
    const unsubscribes = this.configuredRoutes.flatMap((route) => {
      const source = route.model as { onEvent?: (listener: RoutingObserver) => unknown };
      if (typeof source.onEvent !== 'function') return [];
      const unsubscribe = source.onEvent((event) =>
        listener(
          'route' in event && event.route !== undefined
            ? event
            : ({ ...event, route: route.name } as RoutingEvent),
        ),
      );
      return typeof unsubscribe === 'function' ? [unsubscribe as () => void] : [];
    });
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    };
  }

  /**
   * The routers below this model (its own, and those of nested routing models) that take
   * feedback on their decisions, for RoutingChatService.feedback.
   */
  feedbackRouters(): LearnsFromFeedback[] {
    const own = learnsFromFeedback(this.givenRouter) ? [this.givenRouter] : [];
    const nested = this.configuredRoutes.flatMap((route) =>
      route.model instanceof RoutingChatModel ? route.model.feedbackRouters() : [],
    );
    return [...own, ...nested];
  }

  /** Chooses the route for a call: the tool loop's route, else the router's answer. */
  protected async selectRoute(
    request: ChatRequest,
    options: ChatCallOptions,
  ): Promise<RouteSelection> {
    throwIfAborted(options.signal);
    assertChatRequestOnce(request, options);
    const selection = this.toolLoopSelection(request) ?? (await this.askRouter(request, options));
    throwIfAborted(options.signal);
    emitTo(options.observer, {
      type: 'route-selected',
      route: selection.route.name,
      isDefaultRoute: selection.isDefaultRoute,
      sticky: selection.sticky,
      ...(selection.probabilities ? { probabilities: { ...selection.probabilities } } : {}),
      ...this.namedModel(selection.route),
      ...(selection.decisionId !== undefined ? { decision: selection.decisionId } : {}),
    });
    return selection;
  }

  /**
   * The configured name of a model that serves `route` alone (a group names its own members):
   * its name among the module's registered models, else the route's name. Never the provider's
   * model id, so headers and health name it as YAML's one-model routes do.
   */
  protected singleModelName(route: ConfiguredRoute): string | undefined {
    if (isInspectableRouting(route.model)) return undefined;
    return this.modelNames?.get(route.model) ?? route.name;
  }

  private namedModel(route: ConfiguredRoute): { model?: string } {
    const model = this.singleModelName(route);
    return model === undefined ? {} : { model };
  }

  /** A tool result goes back to the route whose model asked for the tool. */
  protected toolLoopSelection(request: ChatRequest): RouteSelection | undefined {
    const name = toolLoopRouteName(request.messages);
    const route = name === undefined ? undefined : this.routesByName.get(name);
    return route ? { route, isDefaultRoute: false, sticky: true } : undefined;
  }

  protected async askRouter(
    request: ChatRequest,
    options: ChatCallOptions,
  ): Promise<RouteSelection> {
    const required = requiredCapabilities(request);
    const candidates = candidateRoutes(this.configuredRoutes, required);
    const defaultRoute =
      candidates.find((route) => route.name === this.defaultRouteName) ?? candidates[0]!;
    const routingRequest = this.routingRequest(request, options, candidates, defaultRoute);
    const result: unknown = await raceAbort(this.router.route(routingRequest), options.signal);
    const route = resolveRoutingResult(result, {
      routes: this.routesByName,
      candidates,
      defaultRoute,
      required,
    });
    const { isDefaultRoute, probabilities, decisionId } = result as ChatModelRoutingResult;
    return {
      route,
      isDefaultRoute,
      sticky: false,
      ...(probabilities ? { probabilities } : {}),
      ...(typeof decisionId === 'string' ? { decisionId } : {}),
    };
  }

  protected routingRequest(
    request: ChatRequest,
    options: ChatCallOptions,
    candidates: readonly ConfiguredRoute[],
    defaultRoute: ConfiguredRoute,
  ): ChatModelRoutingRequest {
    return Object.freeze({
      chatRequest: request,
      routes:
        candidates === this.configuredRoutes
          ? this.views
          : Object.freeze(candidates.map((route) => route.view)),
      attributes: Object.freeze({ ...options.attributes }),
      defaultRoute: defaultRoute.name,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.observer !== undefined ? { observer: options.observer } : {}),
    });
  }

  /**
   * What the route's model is called with: the caller's options plus the route's name, and the
   * request as checked (selectRoute checked it) for a model that would check it again (a group).
   */
  protected modelCallOptions(
    route: ConfiguredRoute,
    options: ChatCallOptions,
    checked: ChatRequest,
  ): ChatCallOptions {
    const callOptions: ChatCallOptions = {
      attributes: { ...options.attributes, ...routeAttribute.entry(route.name) },
    };
    if (checksChatRequests(route.model)) callOptions.checkedRequest = checked;
    if (options.signal !== undefined) callOptions.signal = options.signal;
    if (options.observer !== undefined) callOptions.observer = options.observer;
    return callOptions;
  }
}
