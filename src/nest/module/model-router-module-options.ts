import type { ChatModel } from '../../core/chat/chat-model.js';
import type { Clock } from '../../core/clock.js';
import type { RouteStateStore } from '../../core/state/route-state-store.js';
import type { BudgetDefinition } from '../../core/budget/budget.js';
import type { BudgetLedger } from '../../core/budget/budget-ledger.js';
import type { ChatInterceptorRegistration } from '../interceptors/chat-interceptor.js';
import type { ResponseCacheConfig } from '../../core/cache/cache-config.js';

export interface ModelRouterModuleOptions {
  /** Individual models, injectable with `@InjectChatModel(name)` and callable by name. */
  models?: Record<string, ChatModel>;
  /** Routers (usually RoutingChatModel or ModelRouter), injectable with `@InjectRouter(name)`. */
  routers: Record<string, ChatModel>;
  /** The router used when a call names none. Defaults to the only router when there is one. */
  defaultRouter?: string;
  /** Chat interceptors run after the built-in ones (events, timing), in this order. */
  interceptors?: ChatInterceptorRegistration[];
  /**
   * Route state (circuits, token usage, sticky conversations) shared by every router: handed to
   * each inspectable router at start-up and provided under the `RouteStateStore` token.
   * Default: an `InMemoryRouteStateStore`.
   */
  stateStore?: RouteStateStore;
  /** Close the state store when the application shuts down (set when the module created it). */
  closeStateStoreOnShutdown?: boolean;
  /**
   * Spend limits every group checks before a call and charges after it, counted in the state
   * store (so replicas sharing Redis share them); a group built with its own `budgets` keeps those.
   */
  budgets?: BudgetDefinition[] | BudgetLedger;
  /** The clock handed to routers with the state store; default: each component's own. */
  clock?: Clock;
  /** Register the module globally (also accepted by `forRootAsync`). */
  isGlobal?: boolean;
  /**
   * The response cache (see docs/cache.md): `{ ttl: '5m' }` caches every router's complete
   * answers in memory, per caller key; `routers.<name>: false` leaves a router out.
   */
  cache?: ResponseCacheConfig;
  /** Close the cache's store when the application shuts down (set when the module created it). */
  closeCacheOnShutdown?: boolean;
}

/** Options that shape the module itself; `forRootAsync` needs the names before the factory runs. */
export interface ModelRouterModuleExtras {
  isGlobal?: boolean;
  /** Routers to provide under `getRouterToken(name)` (forRootAsync only: forRoot knows them). */
  routerNames?: string[];
  /** Models to provide under `getChatModelToken(name)` (forRootAsync only). */
  modelNames?: string[];
}
