import {
  type ChatModel,
  type ResilienceOptions,
  type CircuitBreakerOptions,
  type ModelRouterModuleOptions,
} from 'nest-model-router';

/** An OpenAI-compatible or Anthropic endpoint whose models clients address as `name/model-id`. */
export interface ProviderDeclaration {
  type: 'openai' | 'anthropic';
  /** e.g. `http://localhost:11434/v1` (Ollama); default: the vendor's API. */
  baseURL?: string;
  /** Never logged; a blank key disables the provider (see `disabledReason`). */
  apiKey?: string;
  headers?: Record<string, string>;
  /** Ms per SDK request (see the providers' `timeout`). */
  timeoutMs?: number;
  /** Retries and timeouts around each model of this provider; `false`: none. Default: the resilience defaults. */
  resilience?: ResilienceOptions | false;
}

/** A provider as a function from model id to model (tests, custom clients). */
export type ProviderFactory = (modelId: string) => ChatModel;

/** A declared provider that cannot serve here, with the reason shown to clients (no key…). */
export interface DisabledProvider {
  disabled: string;
}

/** Everything the demo gateway serves. */
export interface GatewayConfig {
  /** Routers and models of ModelRouterModule (the gateway adds its own interceptor and clock). */
  module: ModelRouterModuleOptions;
  /** Providers addressable as `provider/model-id`; models are created on first use and cached. */
  providers?: Record<string, ProviderDeclaration | ProviderFactory | DisabledProvider>;
  /** The breaker of per-request `models` failover lists, shared per model name. */
  adHocFailover?: CircuitBreakerOptions;
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
