import { isChatModel, type ChatModel } from '../chat/chat-model.js';
import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import type { BudgetLedger } from '../budget/budget-ledger.js';
import type {
  ErrorClassifier,
  ErrorDisposition,
  ErrorKind,
} from '../resilience/error-classification.js';
import { wrapModel, type ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import type { HedgeOptions } from './hedge-policy.js';
import type {
  ModelErrorListener,
  ModelRoutingFunction,
  ModelRoutingStrategy,
} from '../strategies/model-routing-strategy.js';

/** A model of the group: a bare ChatModel (named `model-N`) or a named one. */
export type ModelRouteDefinition =
  ChatModel | { name: string; model: ChatModel; metadata?: Iterable<[string, unknown]> };

export interface ModelRouterOptions {
  routes: ModelRouteDefinition[];
  routingStrategy: ModelRoutingStrategy | ModelRoutingFunction;
  /** Tried once per call when the strategy picks nothing. Named `default` unless given a name. */
  defaultRoute?: ChatModel | { name: string; model: ChatModel };
  errorListeners?: ModelErrorListener[];
  /**
   * Rescue a stream that fails after output started by asking the next model that declares
   * `ASSISTANT_PREFILL` to continue the partial answer. Default false.
   */
  continuation?: boolean;
  /** Classifies errors; default: the resilience layer's `classifyError`. */
  classifyError?: ErrorClassifier;
  /** Overrides of the default dispositions, e.g. `{ 'content-policy': { failover: true } }`. */
  errorDispositions?: Partial<Record<ErrorKind, Partial<ErrorDisposition>>>;
  /**
   * How long a call's session (the `model_router_session` attribute) stays on the model that
   * last answered it, unless that model is unavailable; default 30 minutes, renewed by every
   * answer.
   */
  sessionTtlMs?: number;
  /** Where session pins live; default: an in-memory store, or the Nest module's shared one. */
  sessionStore?: RouteStateStore;
  /** Key prefix of this group's session pins; default: unique, or the Nest module's scope. */
  sessionScope?: string;
  /**
   * Budgets this group checks before each call and charges after it; default: the Nest
   * module's (`budgets` option), else none.
   */
  budgets?: BudgetLedger;
  /**
   * Hedged requests: after `after` (ms, or a percentile of the group's own latency) without a
   * first token (stream) or answer, the same request also starts on the next model; the first to
   * produce wins. Extra calls are capped at `maxExtra` (default 0.1) of the group's calls.
   */
  hedge?: HedgeOptions;
}

export const DEFAULT_ROUTE_NAME = 'default';

/** The routes as named wrappers, validated: every problem names the route and the field. */
export function wrapRoutes(routes: unknown, hasDefault: boolean): ChatModelWrapper[] {
  if (!Array.isArray(routes)) {
    throw new InvalidConfigurationException(
      'routes of the ModelRouter must be an array of chat models or { name, model } entries.',
    );
  }
  if (routes.length === 0 && !hasDefault) {
    throw new InvalidConfigurationException(
      'routes of the ModelRouter is empty and there is no defaultRoute: add at least one model.',
    );
  }
  const wrappers = routes.map((route: unknown, index) => wrapRoute(route, `model-${index + 1}`));
  const seen = new Set<string>();
  for (const { name } of wrappers) {
    if (seen.has(name)) {
      throw new InvalidConfigurationException(
        `routes of the ModelRouter has more than one model named '${name}'; names must be unique ` +
          '(unnamed routes are called model-N by position).',
      );
    }
    seen.add(name);
  }
  return wrappers;
}

export function wrapDefaultRoute(route: unknown): ChatModelWrapper | undefined {
  if (route === undefined || route === null) return undefined;
  if (isChatModel(route)) return wrapModel(DEFAULT_ROUTE_NAME, route);
  if (isNamedRoute(route)) return wrapRoute(route, DEFAULT_ROUTE_NAME, 'defaultRoute');
  throw new InvalidConfigurationException(
    'defaultRoute must be a chat model (an object with a chat function) or { name, model }.',
  );
}

export function validateListeners(listeners: unknown): ModelErrorListener[] {
  if (listeners === undefined) return [];
  if (!Array.isArray(listeners) || listeners.some((listener) => typeof listener !== 'function')) {
    throw new InvalidConfigurationException(
      'errorListeners must be an array of functions (event: ModelErrorEvent) => void.',
    );
  }
  return [...(listeners as ModelErrorListener[])];
}

function wrapRoute(
  route: unknown,
  position: string,
  field = `route '${position}'`,
): ChatModelWrapper {
  if (isChatModel(route)) return wrapModel(position, route);
  if (typeof route === 'object' && route !== null && 'model' in route) {
    const { name, model, metadata } = route as {
      name?: unknown;
      model?: unknown;
      metadata?: unknown;
    };
    if (typeof name !== 'string' || name.trim() === '') {
      throw new InvalidConfigurationException(
        `name of ${field} of the ModelRouter must be a non-blank string (or pass the bare model to get the name '${position}').`,
      );
    }
    if (!isChatModel(model)) {
      throw new InvalidConfigurationException(
        `model of route '${name}' of the ModelRouter must be a chat model (an object with a chat function).`,
      );
    }
    return wrapModel(name, model, isIterable(metadata) ? metadata : []);
  }
  throw new InvalidConfigurationException(
    `${field} of the ModelRouter is not a chat model: give a ChatModel (an object with a chat ` +
      'function) or { name, model }.',
  );
}

function isNamedRoute(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'model' in value;
}

function isIterable(value: unknown): value is Iterable<[string, unknown]> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
  );
}
