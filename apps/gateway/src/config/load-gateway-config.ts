import {
  type Clock,
  buildModelRouterOptions,
  loadModelRouterConfig,
  type ModelRouterConfig,
} from 'nest-model-router';
import {
  configuredBreaker,
  DEFAULT_MODEL_ROUTER_CONFIG_PATH,
  MODEL_ROUTER_CONFIG_ENV,
  type ProviderConfig,
  providerModelSource,
} from 'nest-model-router/config';
import type { ModelPricing } from 'nest-model-router/core';
import { withHashedKeys } from '../auth/api-keys.js';
import { globMatcher } from '../auth/glob.js';
import { configSecrets } from '../http/config-secrets.js';
import type { GatewayConfig } from './gateway-config.js';
import { demoEmbeddings } from './demo-embeddings.js';
import { gatewayConfigSchema } from './gateway-config-schema.js';
import { gatewayFactories } from './gateway-factories.js';
import type { AuthConfig, CorsConfig, ServerConfig, ToolCallsConfig } from './gateway-sections.js';

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
 * The gateway's own sections (`auth`, `cors`, `toolCalls`, `server`, each provider's `models`) extend the
 * library's schema, so the file is validated once and every problem is listed with one wording.
 */
export async function loadGatewayConfig(
  path: string,
  options: LoadGatewayConfigOptions = {},
): Promise<GatewayConfig> {
  const env = options.env ?? process.env;
  const { config, sections } = readGatewayFile(path, env);
  const factories = gatewayFactories();
  const module = await buildModelRouterOptions(config, {
    factories,
    source: path,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const providers = Object.fromEntries(
    Object.entries(config.providers ?? {}).map(([name, provider]) => [
      name,
      providerModelSource(name, provider, factories, options.clock, {
        pricingOf: modelPricing(sections.providerPrices[name]),
        ...(config.unpricedUnderBudget ? { unpricedUnderBudget: config.unpricedUnderBudget } : {}),
      }),
    ]),
  );
  const auth = sections.auth;
  const secrets = configSecrets(config);
  if (auth !== undefined && auth !== 'none') configSecrets(auth, secrets);
  return {
    module,
    providers,
    adHocFailover: configuredBreaker(config.failoverLists),
    // the YAML's providers as written: those on the OpenAI wire embed too
    embeddingProviders: config.providers ?? {},
    embeddings: demoEmbeddings(),
    source: path,
    secrets: [...secrets],
    providerModels: sections.providerModels,
    ...(auth !== undefined ? { auth: auth === 'none' ? auth : withHashedKeys(auth) } : {}),
    ...(sections.cors ? { cors: sections.cors } : {}),
    ...(sections.toolCalls?.secret ? { toolCallSecret: sections.toolCalls.secret } : {}),
    ...(sections.server?.maxConnections !== undefined
      ? { maxConnections: sections.server.maxConnections }
      : {}),
  };
}

/** What the gateway keeps of its own sections, beside the library's configuration. */
interface GatewaySections {
  auth?: AuthConfig | 'none';
  cors?: CorsConfig;
  toolCalls?: ToolCallsConfig;
  server?: ServerConfig;
  /** `providers.<name>.models`: the model ids (or globs) a provider serves as `provider/id`. */
  providerModels: Record<string, string[]>;
  /** `providers.<name>.models.<id or glob>.pricing`, in the order written. */
  providerPrices: Record<string, [string, ModelPricing][]>;
}

/** A model id's own price: an exact id first, else the first glob that matches it. */
function modelPricing(
  prices: [string, ModelPricing][] | undefined,
): ((modelId: string) => ModelPricing | undefined) | undefined {
  if (!prices?.length) return undefined;
  const exact = new Map(prices.filter(([pattern]) => !pattern.includes('*')));
  const globs = prices
    .filter(([pattern]) => pattern.includes('*'))
    .map(([pattern, pricing]) => ({ match: globMatcher([pattern]), pricing }));
  return (modelId) => exact.get(modelId) ?? globs.find(({ match }) => match(modelId))?.pricing;
}

/**
 * Reads the file once against the gateway's schema (the library's, extended), then hands the
 * library its part: the configuration without the gateway's sections and the providers without
 * their `models` allow-lists.
 */
function readGatewayFile(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): { config: ModelRouterConfig; sections: GatewaySections } {
  const { auth, cors, toolCalls, server, providers, ...rest } = loadModelRouterConfig(path, {
    env,
    schema: gatewayConfigSchema,
  });
  const providerModels: Record<string, string[]> = {};
  const providerPrices: Record<string, [string, ModelPricing][]> = {};
  const libraryProviders: Record<string, ProviderConfig> = {};
  for (const [name, { models, ...provider }] of Object.entries(providers ?? {})) {
    libraryProviders[name] = provider;
    if (Array.isArray(models)) providerModels[name] = models;
    else if (models !== undefined) {
      // a mapping: its keys are the allow-list, its values each id's own settings
      providerModels[name] = Object.keys(models);
      providerPrices[name] = Object.entries(models).flatMap(([id, settings]) =>
        settings?.pricing ? [[id, settings.pricing] as [string, ModelPricing]] : [],
      );
    }
  }
  return {
    config: { ...rest, ...(providers !== undefined ? { providers: libraryProviders } : {}) },
    sections: {
      providerModels,
      providerPrices,
      ...(auth !== undefined ? { auth } : {}),
      ...(cors !== undefined ? { cors } : {}),
      ...(toolCalls !== undefined ? { toolCalls } : {}),
      ...(server !== undefined ? { server } : {}),
    },
  };
}
