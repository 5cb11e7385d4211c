import { type ChatModel, type Clock, InvalidConfigurationException } from 'nest-model-router';
import {
  defaultModelRouterFactories,
  type DisabledProvider,
  type ModelRouterFactories,
  type ProviderConfig,
  type ProviderFactory,
  providerModelSource,
} from 'nest-model-router/config';
import { globMatcher } from '../auth/glob.js';
import type { ProviderSource } from '../config/gateway-config.js';

/** How many provider models stay cached: clients choose the ids, so the cache is bounded. */
const MAX_CACHED_MODELS = 256;

/**
 * Models addressed as `provider/model-id`, created on first use with the provider's base URL and
 * key (as LiteLLM and OpenRouter address models) and kept in a bounded LRU cache. A declared
 * provider is built like any configured model (`providerModelSource` → `buildModel`).
 */
export class ProviderModels {
  private readonly factories = new Map<string, ProviderFactory>();
  /** Declared providers that cannot serve, with the reason (e.g. no key in this environment). */
  private readonly disabled = new Map<string, string>();
  private readonly cache = new Map<string, ChatModel>();
  /** The cache's last key: the model `get` answered most recently. */
  private newest: string | undefined;
  /** `providers.<name>.models`: the only ids such a provider serves (a client picks the id). */
  private readonly allowed = new Map<
    string,
    { patterns: string[]; match: (id: string) => boolean }
  >();

  constructor(
    providers: Record<string, ProviderSource> = {},
    options: {
      clock?: Clock;
      factories?: ModelRouterFactories;
      allowedModels?: Record<string, string[]>;
    } = {},
  ) {
    const factories = options.factories ?? defaultModelRouterFactories();
    for (const [name, patterns] of Object.entries(options.allowedModels ?? {})) {
      this.allowed.set(name, { patterns, match: globMatcher(patterns) });
    }
    for (const [name, provider] of Object.entries(providers)) {
      if (name.trim() === '' || name.includes('/')) {
        throw new InvalidConfigurationException(
          `providers.${name}: a provider name must be non-blank and contain no '/'`,
        );
      }
      const source =
        typeof provider === 'function' || isDisabled(provider)
          ? provider
          : providerModelSource(name, provider as ProviderConfig, factories, options.clock);
      if (typeof source === 'function') this.factories.set(name, source);
      else this.disabled.set(name, source.disabled);
    }
  }

  /** Providers that serve models. */
  providerNames(): string[] {
    return [...this.factories.keys()];
  }

  /** Declared providers that cannot serve, with the reason. */
  disabledProviders(): ReadonlyMap<string, string> {
    return this.disabled;
  }

  has(provider: string): boolean {
    return this.factories.has(provider);
  }

  /** Why a declared provider cannot serve; undefined when it can or is not declared. */
  disabledReason(provider: string): string | undefined {
    return this.disabled.get(provider);
  }

  /** Why this provider does not serve `modelId` (its allow-list); undefined when it does. */
  refusal(provider: string, modelId: string): string | undefined {
    const allowed = this.allowed.get(provider);
    if (!allowed || allowed.match(modelId)) return undefined;
    return `provider '${provider}' serves only the models ${allowed.patterns.join(', ')} on this gateway`;
  }

  /** The model already built for `provider/model-id`, if any (nothing is built or reordered). */
  cached(name: string): ChatModel | undefined {
    return this.cache.get(name);
  }

  /** The model for `provider/model-id`; undefined when the provider cannot serve it. */
  get(provider: string, modelId: string): ChatModel | undefined {
    const factory = this.factories.get(provider);
    if (!factory || this.refusal(provider, modelId) !== undefined) return undefined;
    const key = `${provider}/${modelId}`;
    let model = this.cache.get(key);
    if (model) {
      // already the most recently used (a gateway mostly serves one model after another): the
      // order stands, and the Map is spared a delete and an insert
      if (key === this.newest) return model;
      this.cache.delete(key); // most recently used goes last
    } else {
      model = factory(modelId);
      if (this.cache.size >= MAX_CACHED_MODELS) {
        this.cache.delete(this.cache.keys().next().value!);
      }
    }
    this.cache.set(key, model);
    this.newest = key;
    return model;
  }
}

function isDisabled(value: object): value is DisabledProvider {
  return typeof (value as Partial<DisabledProvider>).disabled === 'string';
}
