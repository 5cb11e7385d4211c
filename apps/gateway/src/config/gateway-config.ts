import type { CircuitBreakerOptions, ModelRouterModuleOptions } from 'nest-model-router';
import type {
  ConfiguredBreaker,
  DisabledProvider,
  ProviderConfig,
  ProviderFactory,
} from 'nest-model-router/config';
import type { EmbeddingModel } from 'nest-model-router/core';
import type { AuthConfig } from './gateway-sections.js';

/**
 * A provider as declared in the YAML's `providers` (`{ type, baseURL?, apiKey?, resilience?,
 * ...settings }`), as a function from model id to model, or disabled with the reason.
 */
export type ProviderSource = ProviderConfig | ProviderFactory | DisabledProvider;

/** Everything the demo gateway serves. */
export interface GatewayConfig {
  /**
   * API keys, their scopes and limits (docs/gateway.md: "Running the gateway for a team"). Absent: no
   * keys, and the gateway refuses to listen beyond loopback; `'none'`: no keys on any address,
   * by the operator's choice.
   */
  auth?: AuthConfig | 'none';
  /** Browser origins allowed to call the gateway; absent: no CORS headers at all. */
  cors?: { origins: string[] };
  /**
   * Signs tool call ids (HMAC). Give every replica the same one; absent: a random secret per
   * process, so ids do not survive a restart nor move between replicas.
   */
  toolCallSecret?: string;
  /**
   * Connections open at once (YAML: `server.maxConnections`); beyond it a request is answered
   * 503 with `Retry-After`. Default: DEFAULT_MAX_CONNECTIONS (4,096).
   */
  maxConnections?: number;
  /** Per provider, the model ids (or globs) clients may address as `provider/model-id`. */
  providerModels?: Record<string, string[]>;
  /**
   * Values no answer or log may carry, besides what providers redact themselves (the YAML's keys,
   * URL passwords, the state store's password); the YAML loader collects them.
   */
  secrets?: string[];
  /** Routers and models of ModelRouterModule (the gateway adds its own interceptor and clock). */
  module: ModelRouterModuleOptions;
  /** Providers addressable as `provider/model-id`; models are created on first use and cached. */
  providers?: Record<string, ProviderSource>;
  /**
   * The breaker of per-request `models` failover lists, shared per model name (YAML:
   * `failoverLists`). Default: `CONFIGURED_BREAKER_DEFAULTS` (10 s doubling to 30 s, one probe).
   */
  adHocFailover?: ConfiguredBreaker;
  /** Embedding models of `POST /v1/embeddings` by name (a FailoverEmbeddingModel is a group). */
  embeddings?: Record<string, EmbeddingModel>;
  /**
   * The raw provider entries, for `provider/model-id` embeddings (chat's `providers` may already
   * be built into model factories, which cannot embed); default: `providers`.
   */
  embeddingProviders?: Record<string, ProviderSource>;
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
