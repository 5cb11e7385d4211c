import type {
  CircuitBreakerOptions,
  ConfiguredBreaker,
  DisabledProvider,
  ModelRouterModuleOptions,
  ProviderConfig,
  ProviderFactory,
} from 'nest-model-router';

/**
 * A provider as declared in the YAML's `providers` (`{ type, baseURL?, apiKey?, resilience?,
 * ...settings }`), as a function from model id to model, or disabled with the reason.
 */
export type ProviderSource = ProviderConfig | ProviderFactory | DisabledProvider;

/** Everything the demo gateway serves. */
export interface GatewayConfig {
  /** Routers and models of ModelRouterModule (the gateway adds its own interceptor and clock). */
  module: ModelRouterModuleOptions;
  /** Providers addressable as `provider/model-id`; models are created on first use and cached. */
  providers?: Record<string, ProviderSource>;
  /**
   * The breaker of per-request `models` failover lists, shared per model name (YAML:
   * `failoverLists`). Default: `CONFIGURED_BREAKER_DEFAULTS` (10 s doubling to 30 s, one probe).
   */
  adHocFailover?: ConfiguredBreaker;
  /** Where the configuration came from, for the start-up banner (a file path). */
  source?: string;
}

/**
 * The breaker of the demo: one probe when a cooldown ends, doubling cooldowns while a model keeps
 * failing. The short cooldown lets a person watch a model leave and come back.
 */
export const DEMO_BREAKER: CircuitBreakerOptions = {
  cooldownMs: 15_000,
  halfOpenProbes: 1,
  cooldownMultiplier: 2,
};
