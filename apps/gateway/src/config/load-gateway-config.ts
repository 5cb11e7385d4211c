import {
  type Clock,
  buildModelRouterOptions,
  configuredBreaker,
  DEFAULT_MODEL_ROUTER_CONFIG_PATH,
  loadModelRouterConfig,
  MODEL_ROUTER_CONFIG_ENV,
  providerModelSource,
} from 'nest-model-router';
import type { GatewayConfig } from './gateway-config.js';
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
      providerModelSource(name, provider, factories, options.clock),
    ]),
  );
  return {
    module,
    providers,
    adHocFailover: configuredBreaker(config.failoverLists),
    source: path,
  };
}
