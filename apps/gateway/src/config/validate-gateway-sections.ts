import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import {
  ApiKeyConfig,
  AuthConfig,
  CorsConfig,
  type KeySecretConfig,
  ToolCallsConfig,
} from './gateway-sections.js';
import { isObject } from '../http/json-checks.js';

/**
 * The sections of the YAML file that belong to the gateway, not to ModelRouterModule: the
 * library's schema rejects unknown keys, so the gateway takes these out before handing the rest
 * to `parseModelRouterConfig`, and validates them here, with the same class-validator style and
 * problems by path. `ModelRouterConfig` stays the library's alone.
 */
export const GATEWAY_SECTIONS = ['auth', 'cors', 'toolCalls'] as const;

export interface GatewaySections {
  /** `none`: the operator chose to serve without keys on any address. */
  auth?: AuthConfig | 'none';
  cors?: CorsConfig;
  toolCalls?: ToolCallsConfig;
  /** `providers.<name>.models`: the model ids (or globs) a provider serves as `provider/id`. */
  providerModels: Record<string, string[]>;
}

/** What the cross-reference checks need to know of the library's part of the file. */
export interface ConfiguredNames {
  routers: readonly string[];
  models: readonly string[];
  providers: readonly string[];
}

/**
 * Takes the gateway's sections (and each provider's `models` allow-list) out of `raw`, which is
 * modified, and validates them; problems go to `problems`, never with a secret's value.
 */
export function takeGatewaySections(
  raw: Record<string, unknown>,
  problems: string[],
): GatewaySections {
  const sections: GatewaySections = { providerModels: {} };
  const { auth, cors, toolCalls } = raw;
  for (const section of GATEWAY_SECTIONS) delete raw[section];
  if (auth === 'none') sections.auth = 'none';
  else if (auth !== undefined) sections.auth = validated(AuthConfig, auth, 'auth', problems);
  if (cors !== undefined) sections.cors = validated(CorsConfig, cors, 'cors', problems);
  if (toolCalls !== undefined) {
    sections.toolCalls = validated(ToolCallsConfig, toolCalls, 'toolCalls', problems);
  }
  const providers = raw.providers;
  if (isObject(providers)) {
    for (const [name, provider] of Object.entries(providers)) {
      if (!isObject(provider) || !('models' in provider)) continue;
      const { models, ...rest } = provider;
      providers[name] = rest;
      if (!Array.isArray(models) || !models.every((m) => typeof m === 'string' && m.trim())) {
        problems.push(`providers.${name}.models: must be a list of model ids or globs`);
        continue;
      }
      sections.providerModels[name] = models as string[];
    }
  }
  return sections;
}

/** Checks what the shapes cannot: one secret per key, unique names, scopes that name things. */
export function checkGatewaySections(
  sections: GatewaySections,
  names: ConfiguredNames,
  problems: string[],
): void {
  const auth = sections.auth;
  if (auth === undefined || auth === 'none') return;
  const keys = auth.keys ?? [];
  const admins = auth.adminKeys ?? [];
  if (keys.length === 0 && admins.length === 0) {
    problems.push(
      'auth: list at least one key under keys (or write `auth: none` to serve without)',
    );
  }
  const seen = new Set<string>();
  const check = (key: KeySecretConfig, path: string) => {
    if ((key.key === undefined) === (key.sha256 === undefined)) {
      problems.push(`${path}: give exactly one of key (e.g. '\${TEAM_KEY}') or sha256`);
    }
    if (typeof key.name === 'string') {
      if (seen.has(key.name)) problems.push(`${path}.name: '${key.name}' is used twice`);
      seen.add(key.name);
    }
  };
  keys.forEach((key, index) => {
    const path = `auth.keys[${index}]`;
    check(key, path);
    if (key instanceof ApiKeyConfig) checkScope(key, path, names, problems);
  });
  admins.forEach((key, index) => check(key, `auth.adminKeys[${index}]`));
}

function checkScope(
  key: ApiKeyConfig,
  path: string,
  names: ConfiguredNames,
  problems: string[],
): void {
  const exact = (list: string[] | undefined, known: readonly string[], field: string) => {
    list?.forEach((name, index) => {
      if (typeof name === 'string' && !name.includes('*') && !known.includes(name)) {
        problems.push(
          `${path}.${field}[${index}]: unknown ${field.slice(0, -1)} '${name}'; known: ${known.join(', ')}`,
        );
      }
    });
  };
  exact(key.routers, names.routers, 'routers');
  exact(key.models, names.models, 'models');
  const providerModels = key.providerModels;
  if (providerModels === undefined || typeof providerModels === 'boolean') return;
  if (!Array.isArray(providerModels)) {
    problems.push(`${path}.providerModels: must be true, false or a list of provider/model globs`);
    return;
  }
  providerModels.forEach((pattern, index) => {
    const at = `${path}.providerModels[${index}]`;
    const slash = typeof pattern === 'string' ? pattern.indexOf('/') : -1;
    if (slash <= 0 || slash === pattern.length - 1) {
      problems.push(`${at}: must be provider/model-id (globs allowed, e.g. openai/gpt-4o*)`);
    } else if (!names.providers.includes(pattern.slice(0, slash))) {
      problems.push(
        `${at}: unknown provider '${pattern.slice(0, slash)}'; known: ${names.providers.join(', ')}`,
      );
    }
  });
}

function validated<T extends object>(
  type: new () => T,
  value: unknown,
  path: string,
  problems: string[],
): T {
  if (!isObject(value)) {
    problems.push(`${path}: must be a mapping`);
    return new type();
  }
  const instance = plainToInstance(type, value);
  collect(
    validateSync(instance, {
      forbidUnknownValues: false,
      whitelist: true,
      forbidNonWhitelisted: true,
    }),
    path,
    problems,
  );
  return instance;
}

function collect(errors: ValidationError[], path: string, problems: string[]): void {
  for (const error of errors) {
    const at = /^\d+$/.test(error.property)
      ? `${path}[${error.property}]`
      : `${path}.${error.property}`;
    for (const [rule, message] of Object.entries(error.constraints ?? {})) {
      const text =
        rule === 'whitelistValidation'
          ? 'unknown setting'
          : message.startsWith(`${error.property} `)
            ? message.slice(error.property.length + 1)
            : message;
      problems.push(`${at}: ${text}`);
    }
    collect(error.children ?? [], at, problems);
  }
}
