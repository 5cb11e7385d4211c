import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import {
  type Clock,
  buildModelRouterOptions,
  InvalidModelRouterConfigException,
  loadModelRouterConfig,
  type ModelRouterConfig,
  parseModelRouterConfig,
} from 'nest-model-router';
import {
  configuredBreaker,
  DEFAULT_MODEL_ROUTER_CONFIG_PATH,
  interpolateEnv,
  MODEL_ROUTER_CONFIG_ENV,
  providerModelSource,
} from 'nest-model-router/config';
import { withHashedKeys } from '../auth/api-keys.js';
import { configSecrets } from '../http/config-secrets.js';
import type { GatewayConfig } from './gateway-config.js';
import { DEMO_EMBEDDING, demoEmbeddings } from './demo-embeddings.js';
import { gatewayFactories } from './gateway-factories.js';
import {
  checkGatewaySections,
  type GatewaySections,
  takeGatewaySections,
} from './validate-gateway-sections.js';
import { isObject } from '../http/json-checks.js';

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
 * The gateway's own sections (`auth`, `cors`, `toolCalls`, each provider's `models`) are taken
 * out and validated here; the library validates the rest, and both sets of problems are listed
 * together.
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
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const providers = Object.fromEntries(
    Object.entries(config.providers ?? {}).map(([name, provider]) => [
      name,
      providerModelSource(name, provider, factories, options.clock),
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
  };
}

function readGatewayFile(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): { config: ModelRouterConfig; sections: GatewaySections } {
  let raw: unknown;
  try {
    raw = load(readFileSync(path, 'utf8'));
  } catch {
    // an unreadable file or bad YAML: the library's loader says which, as it always has
    return { config: loadModelRouterConfig(path, { env }), sections: { providerModels: {} } };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      config: parseModelRouterConfig(raw as never, { env, source: path }),
      sections: { providerModels: {} },
    };
  }
  const problems: string[] = [];
  const interpolated = { ...(raw as Record<string, unknown>) };
  // the providers' allow-lists are the gateway's: the library sees providers without them
  const own = pick(interpolated, ['auth', 'cors', 'toolCalls']);
  const providers = interpolated.providers;
  if (isObject(providers)) {
    own.providers = Object.fromEntries(
      Object.entries(providers)
        .filter(([, provider]) => isObject(provider) && 'models' in provider)
        .map(([name, provider]) => [
          name,
          { models: (provider as Record<string, unknown>).models },
        ]),
    );
    interpolated.providers = Object.fromEntries(
      Object.entries(providers).map(([name, provider]) => [
        name,
        isObject(provider) ? withoutKey(provider, 'models') : provider,
      ]),
    );
  }
  const sections = takeGatewaySections(
    interpolateEnv(own, env, problems) as Record<string, unknown>,
    problems,
  );
  for (const section of ['auth', 'cors', 'toolCalls']) delete interpolated[section];
  // the scopes name routers and models of the file: checked even when the rest has problems
  checkGatewaySections(
    sections,
    {
      routers: namesOf(interpolated.routers),
      // a key's `models` scope holds for the embedding models too
      models: [...namesOf(interpolated.models), DEMO_EMBEDDING],
      providers: namesOf(interpolated.providers),
    },
    problems,
  );
  let config: ModelRouterConfig;
  try {
    config = parseModelRouterConfig(interpolated, { env, source: path });
  } catch (error) {
    if (!(error instanceof InvalidModelRouterConfigException)) throw error;
    throw new InvalidModelRouterConfigException([...error.problems, ...problems], path);
  }
  if (problems.length > 0) throw new InvalidModelRouterConfigException(problems, path);
  return { config, sections };
}

function namesOf(value: unknown): string[] {
  return isObject(value) ? Object.keys(value) : [];
}

function pick(value: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => key in value).map((key) => [key, value[key]]));
}

function withoutKey(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}
