import type { ChatRequest } from '../../core/chat/request.js';
import type { CacheControl } from '../../core/cache/response-cache.js';
import type { RequestRoutingScope } from '../http/request-routing-scope.js';
import type { AdHocModel } from './ad-hoc-model.js';
import type { StreamFlow } from './observable-from-stream.js';

/** How one `RoutingChatService` call is routed, scoped and checked. */
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
  /** The response cache: `no-cache` (store, no lookup), `no-store`; default: `Cache-Control`. */
  cacheControl?: CacheControl;
}
