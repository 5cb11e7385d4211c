import {
  type Clock,
  InvalidConfigurationException,
  ResilientChatModel,
  type ResilienceOptions,
  buildModelRouterOptions,
  DEFAULT_MODEL_ROUTER_CONFIG_PATH,
  loadModelRouterConfig,
  MODEL_ROUTER_CONFIG_ENV,
  type ProviderConfig,
  type ModelRouterFactories,
} from 'nest-model-router';
import { noKeyReason } from '../models/provider-models.js';
import type { DisabledProvider, GatewayConfig, ProviderFactory } from './gateway-config.js';
import { gatewayFactories } from './gateway-factories.js';

export interface LoadGatewayConfigOptions {
  /** For `${ENV}` interpolation; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  clock?: Clock;
}

/** `MODEL_ROUTER_CONFIG`, else `config/model-router.yaml`. */
export function gatewayConfigPath(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return env[MODEL_ROUTER_CONFIG_ENV] || DEFAULT_MODEL_ROUTER_CONFIG_PATH;
}

/**
 * Reads the module's YAML configuration (interpolated, validated, every problem listed by path)
 * and builds the gateway from it: the routers and models, and each `providers` entry as a
 * source of `provider/model-id` models built by the same factories as configured models.
 */
export async function loadGatewayConfig(
  path: string,
  options: LoadGatewayConfigOptions = {},
): Promise<GatewayConfig> {
  const config = loadModelRouterConfig(path, options.env ? { env: options.env } : {});
  const factories = gatewayFactories();
  const module = await buildModelRouterOptions(config, {
    factories,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const providers = Object.fromEntries(
    Object.entries(config.providers ?? {}).map(([name, provider]) => [
      name,
      providerFactory(name, provider, factories, options.clock),
    ]),
  );
  return { module, providers, source: path };
}

/**
 * A provider entry as a model factory: `{ type, ...settings }` plus `model: <id>`, through the
 * type's factory, with the provider's `resilience` (or the type's default). A blank `apiKey`
 * (e.g. `${OPENAI_API_KEY:-}` with the variable unset) disables the provider instead of failing
 * the start: the offline demo declares providers that only work when their key is set.
 */
function providerFactory(
  name: string,
  provider: ProviderConfig,
  factories: ModelRouterFactories,
  clock: Clock | undefined,
): ProviderFactory | DisabledProvider {
  const { type, resilience, ...settings } = provider as ProviderConfig & {
    resilience?: ResilienceOptions | false;
  };
  const registration = factories.modelType(type);
  if (!registration) {
    throw new InvalidConfigurationException(
      `providers.${name}.type: unknown model type '${type}'; registered types: ${factories.modelTypeNames().join(', ')}`,
    );
  }
  if ('apiKey' in settings) {
    const key = settings.apiKey;
    if (typeof key !== 'string' || key.trim() === '') return { disabled: noKeyReason(name) };
  }
  return (modelId) => {
    const model = registration.create(
      {
        // errors name the provider as configured (`ollama`), not the SDK's family (`openai`)
        ...(type === 'openai' || type === 'anthropic' ? { providerName: name } : {}),
        ...settings,
        model: modelId,
      },
      {
        name: `${name}/${modelId}`,
        path: `providers.${name}`,
        provider: name,
        ...(clock ? { clock } : {}),
      },
    );
    if (resilience === false || (resilience === undefined && !registration.resilientByDefault)) {
      return model;
    }
    return new ResilientChatModel(model, {
      name: `${name}/${modelId}`,
      ...resilience,
      ...(clock ? { clock } : {}),
    });
  };
}
