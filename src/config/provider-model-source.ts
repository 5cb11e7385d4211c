import type { ChatModel } from '../core/chat/chat-model.js';
import type { Clock } from '../core/clock.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import type { ModelPricing, UnpricedUnderBudget } from '../core/cost/model-profile.js';
import type { ResilienceOptions } from '../core/resilience/resilient-chat-model.js';
import { rememberProfile } from './cost-config.js';
import { CREDENTIALS_IN_URL, hasCredentials } from '../providers/shared/option-checks.js';
import { plainWordKeyProblem } from '../providers/shared/plain-word-key.js';
import { buildModel } from './build-model.js';
import type { ProviderConfig } from './model-router-config.js';
import type { ModelRouterFactories } from './model-router-factories.js';

/** A provider as a function from model id to model (tests, custom clients). */
export type ProviderFactory = (modelId: string) => ChatModel;

/** How a provider's models are priced, beside its entry's own `pricing`. */
export interface ProviderPricingOptions {
  /** A model id's own price (e.g. from per-model settings); else the provider's `pricing`. */
  pricingOf?: (modelId: string) => ModelPricing | undefined;
  /** What a budget does with a model of no known price; default `refuse`. */
  unpricedUnderBudget?: UnpricedUnderBudget;
}

/** A declared provider that cannot serve here, with the reason shown to clients (no key…). */
export interface DisabledProvider {
  disabled: string;
}

/**
 * A provider entry (`{ type, baseURL?, apiKey?, resilience?, ...settings }`, as in the YAML's
 * `providers`) as a source of `provider/model-id` models, built by `buildModel` like any
 * configured model. A blank `apiKey` (e.g. `${OPENAI_API_KEY:-}` with the variable unset)
 * disables the provider instead of failing the start: the offline demo declares providers that
 * only work when their key is set. Each model is priced by `pricing.pricingOf(id)`, else the
 * entry's `pricing`; with neither, a budget over its call refuses it unless
 * `unpricedUnderBudget` is `allow` (an unpriced call would spend without being counted).
 */
export function providerModelSource(
  name: string,
  provider: ProviderConfig,
  factories: ModelRouterFactories,
  clock?: Clock,
  pricing: ProviderPricingOptions = {},
): ProviderFactory | DisabledProvider {
  if (typeof provider !== 'object' || provider === null) {
    throw new InvalidConfigurationException(
      `providers.${name}: must be an object { type, baseURL?, apiKey }`,
    );
  }
  const {
    type,
    resilience,
    pricing: providerPricing,
    ...settings
  } = provider as ProviderConfig & {
    resilience?: ResilienceOptions | false;
  };
  if (!factories.modelType(type)) {
    throw new InvalidConfigurationException(
      `providers.${name}.type: unknown model type '${String(type)}'; registered types: ${factories.modelTypeNames().join(', ')}`,
    );
  }
  // checked now: the provider's models are built on first use, where this would be a 500
  const { baseURL } = settings as { baseURL?: unknown };
  if (typeof baseURL === 'string' && hasCredentials(baseURL)) {
    throw new InvalidConfigurationException(`providers.${name}.baseURL: ${CREDENTIALS_IN_URL}`);
  }
  if ('apiKey' in settings) {
    const key = settings.apiKey;
    if (key !== undefined && typeof key !== 'string') {
      throw new InvalidConfigurationException(`providers.${name}.apiKey: must be a string`);
    }
    if (key === undefined || key.trim() === '') return { disabled: noKeyReason(name) };
    // checked now: the provider's models are built on first use, after the start
    const problem = plainWordKeyProblem(key, [name, type]);
    if (problem !== undefined) {
      throw new InvalidConfigurationException(`providers.${name}: apiKey ${problem}`);
    }
  }
  const unpricedUnderBudget = pricing.unpricedUnderBudget ?? 'refuse';
  return (modelId) => {
    const model = buildModel(
      {
        type,
        ...(resilience !== undefined ? { resilience } : {}),
        settings: {
          // errors name the provider as configured (`ollama`), not the SDK's family (`openai`)
          ...(type === 'openai' || type === 'anthropic' ? { providerName: name } : {}),
          ...settings,
          model: modelId,
        },
      },
      factories,
      {
        name: `${name}/${modelId}`,
        path: `providers.${name}`,
        provider: name,
        ...(clock ? { clock } : {}),
      },
    );
    const price = pricing.pricingOf?.(modelId) ?? providerPricing;
    rememberProfile(model, { ...(price ? { pricing: price } : {}), unpricedUnderBudget });
    return model;
  };
}

export function noKeyReason(provider: string): string {
  return (
    `provider '${provider}' has no apiKey in this environment; set its key in the configuration ` +
    '(for a local server such as Ollama, which needs none, leave apiKey out) and restart'
  );
}
