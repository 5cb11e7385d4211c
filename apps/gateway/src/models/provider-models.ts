import {
  type ChatModel,
  type Clock,
  InvalidConfigurationException,
  withResilience,
  AnthropicChatModel,
  OpenAiCompatibleChatModel,
} from 'nest-model-router';
import type {
  DisabledProvider,
  ProviderDeclaration,
  ProviderFactory,
} from '../config/gateway-config.js';

/** How many provider models stay cached: clients choose the ids, so the cache is bounded. */
const MAX_CACHED_MODELS = 256;

/**
 * Models addressed as `provider/model-id`, created on first use with the provider's base URL and
 * key (as LiteLLM and OpenRouter address models) and kept in a bounded LRU cache.
 */
export class ProviderModels {
  private readonly factories = new Map<string, ProviderFactory>();
  /** Declared providers that cannot serve, with the reason (e.g. no key in this environment). */
  private readonly disabled = new Map<string, string>();
  private readonly cache = new Map<string, ChatModel>();

  constructor(
    providers: Record<string, ProviderDeclaration | ProviderFactory | DisabledProvider> = {},
    private readonly hooks: {
      clock?: Clock;
      /** Called with each new provider model and its full name (`provider/model-id`). */
      created?: (name: string, model: ChatModel) => void;
    } = {},
  ) {
    for (const [name, provider] of Object.entries(providers)) {
      if (name.trim() === '' || name.includes('/')) {
        throw new InvalidConfigurationException(
          `providers.${name}: a provider name must be non-blank and contain no '/'`,
        );
      }
      if (typeof provider === 'function') {
        this.factories.set(name, provider);
        continue;
      }
      if (isDisabled(provider)) {
        this.disabled.set(name, provider.disabled);
        continue;
      }
      const problem = disabledReason(name, provider);
      if (problem) this.disabled.set(name, problem);
      else this.factories.set(name, this.factoryOf(name, provider));
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

  /** The model for `provider/model-id`; undefined when the provider cannot serve. */
  get(provider: string, modelId: string): ChatModel | undefined {
    const factory = this.factories.get(provider);
    if (!factory) return undefined;
    const key = `${provider}/${modelId}`;
    let model = this.cache.get(key);
    if (model) {
      this.cache.delete(key); // most recently used goes last
    } else {
      model = factory(modelId);
      this.hooks.created?.(key, model);
      if (this.cache.size >= MAX_CACHED_MODELS) {
        this.cache.delete(this.cache.keys().next().value!);
      }
    }
    this.cache.set(key, model);
    return model;
  }

  private factoryOf(name: string, declaration: ProviderDeclaration): ProviderFactory {
    const { type, baseURL, apiKey, headers, timeoutMs, resilience } = declaration;
    const common = {
      apiKey: apiKey!,
      providerName: name,
      ...(baseURL ? { baseURL } : {}),
      ...(headers ? { headers } : {}),
      ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
      ...(this.hooks.clock ? { clock: this.hooks.clock } : {}),
    };
    return (modelId) => {
      const model =
        type === 'openai'
          ? new OpenAiCompatibleChatModel({ ...common, model: modelId })
          : new AnthropicChatModel({ ...common, model: modelId });
      if (resilience === false) return model;
      return withResilience(model, {
        name: `${name}/${modelId}`,
        ...resilience,
        ...(this.hooks.clock ? { clock: this.hooks.clock } : {}),
      });
    };
  }
}

function isDisabled(value: object): value is DisabledProvider {
  return typeof (value as Partial<DisabledProvider>).disabled === 'string';
}

/** A declaration that is wrong in itself fails start-up; one that lacks its key is disabled. */
function disabledReason(name: string, declaration: ProviderDeclaration): string | undefined {
  if (typeof declaration !== 'object' || declaration === null) {
    throw new InvalidConfigurationException(
      `providers.${name}: must be an object { type, baseURL?, apiKey }`,
    );
  }
  if (declaration.type !== 'openai' && declaration.type !== 'anthropic') {
    throw new InvalidConfigurationException(
      `providers.${name}.type: must be 'openai' or 'anthropic'; got ${String(declaration.type)}`,
    );
  }
  const key = declaration.apiKey;
  if (key !== undefined && typeof key !== 'string') {
    throw new InvalidConfigurationException(`providers.${name}.apiKey: must be a string`);
  }
  return key === undefined || key.trim() === '' ? noKeyReason(name) : undefined;
}

export function noKeyReason(provider: string): string {
  return (
    `provider '${provider}' has no apiKey in this environment; set its key in the configuration ` +
    '(local servers such as Ollama accept any non-blank value) and restart'
  );
}
