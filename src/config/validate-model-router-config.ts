import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { checkRouteStateConfig } from '../redis/route-state-store-config.js';
import { scrubCredentials } from '../core/observability/scrub-credentials.js';
import { GROUP_BREAKER_KEYS } from './group-breaker-keys.js';
import {
  InvalidModelRouterConfigException,
  joinPath,
} from './invalid-model-router-config.exception.js';
import {
  GroupConfig,
  ModelConfig,
  ModelRouterConfig,
  ProviderConfig,
  RouteConfig,
  RouterConfig,
} from './model-router-config.js';
import { quoteNames } from '../core/errors/quote-names.js';
import { checkBalance, checkBudgets, checkModelProfile } from './cost-config.js';

const GROUP_KEYS = [
  'model',
  'models',
  'strategy',
  'balance',
  ...GROUP_BREAKER_KEYS,
  'continuation',
  'sessionTtlMs',
];
const ROUTER_KEYS = new Set([...GROUP_KEYS, 'routes', 'decision', 'defaultRoute']);
const ROUTE_KEYS = new Set([...GROUP_KEYS, 'name', 'description', 'examples']);
const TOP_KEYS = new Set([
  'providers',
  'models',
  'routers',
  'defaultRouter',
  'state',
  'failoverLists',
  'budgets',
]);
const FAILOVER_LIST_KEYS = new Set<string>(GROUP_BREAKER_KEYS);

/**
 * Validates a parsed (and interpolated) configuration: shapes with class-validator, then every
 * cross-reference (models of routes, default route and router, providers of models, state).
 * Throws one InvalidModelRouterConfigException listing every problem by path.
 */
export function validateModelRouterConfig(raw: unknown, source?: string): ModelRouterConfig {
  const problems: string[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InvalidModelRouterConfigException(
      ['(root): must be a mapping with models and routers'],
      source,
    );
  }
  checkKeys(raw as Record<string, unknown>, TOP_KEYS, '', problems);
  const config = validated(ModelRouterConfig, raw, '', problems);

  const providers = entries(config.providers, 'providers', problems).map(([name, value]) => [
    name,
    validated(ProviderConfig, value, joinPath('providers', name), problems),
  ]);
  const models = entries(config.models, 'models', problems).map(([name, value]) => [
    name,
    validated(ModelConfig, value, joinPath('models', name), problems),
  ]);
  const routerEntries = entries(config.routers, 'routers', problems);
  if (isRecord(config.routers) && routerEntries.length === 0) {
    problems.push('routers: at least one router is required');
  }
  const routers = routerEntries.map(([name, value]) => {
    const path = joinPath('routers', name);
    if (isRecord(value)) checkKeys(value, ROUTER_KEYS, path, problems);
    return [name, validated(RouterConfig, value, path, problems)] as const;
  });

  const providerNames = providers.map(([name]) => name as string);
  const modelNames = models.map(([name]) => name as string);
  for (const [name, model] of models as [string, ModelConfig][]) {
    checkModel(name, model, providerNames, problems);
  }
  for (const [name, router] of routers) {
    const path = joinPath('routers', name);
    checkRouter(router, path, modelNames, problems);
    if (modelNames.includes(name)) {
      problems.push(`${path}: '${name}' is both a router and a model; give each a unique name`);
    }
  }
  const routerNames = routers.map(([name]) => name);
  if (config.defaultRouter !== undefined && typeof config.defaultRouter === 'string') {
    if (!routerNames.includes(config.defaultRouter)) {
      problems.push(
        `defaultRouter: unknown router '${config.defaultRouter}'; known routers: ${quoteNames(routerNames)}`,
      );
    }
  }
  if (config.state !== undefined) checkState(config.state, problems);
  if (config.budgets !== undefined) checkBudgets(config.budgets, problems);
  if (isRecord(config.failoverLists)) {
    checkKeys(config.failoverLists, FAILOVER_LIST_KEYS, 'failoverLists', problems);
    config.failoverLists = validated(GroupConfig, config.failoverLists, 'failoverLists', problems);
  }

  if (problems.length > 0) throw new InvalidModelRouterConfigException(problems, source);
  config.providers = Object.fromEntries(providers) as Record<string, ProviderConfig>;
  config.models = Object.fromEntries(models) as Record<string, ModelConfig>;
  config.routers = Object.fromEntries(routers) as Record<string, RouterConfig>;
  return config;
}

function checkModel(
  name: string,
  model: ModelConfig,
  providers: string[],
  problems: string[],
): void {
  const path = joinPath('models', name);
  if (model.type === undefined && model.provider === undefined) {
    problems.push(`${path}.type: required (or name a provider whose type the model takes)`);
  }
  if (typeof model.provider === 'string' && !providers.includes(model.provider)) {
    problems.push(
      `${path}.provider: unknown provider '${model.provider}'; known providers: ${quoteNames(providers)}`,
    );
  }
  if (model.resilience !== undefined && model.resilience !== false && !isRecord(model.resilience)) {
    problems.push(`${path}.resilience: must be an object of resilience options, or false`);
  }
  checkModelProfile(name, model, problems);
}

function checkRouter(
  router: RouterConfig,
  path: string,
  models: string[],
  problems: string[],
): void {
  const isGroup = router.model !== undefined || router.models !== undefined;
  if (router.routes !== undefined && isGroup) {
    problems.push(
      `${path}: give either routes (a decision-routed router) or model/models (a model group), not both`,
    );
    return;
  }
  if (router.routes === undefined) {
    if (!isGroup)
      problems.push(`${path}: needs routes (decision routing) or model/models (a group)`);
    if (router.decision !== undefined) {
      problems.push(`${path}.decision: only a router with routes takes a decision model`);
    }
    if (router.defaultRoute !== undefined) {
      problems.push(`${path}.defaultRoute: only a router with routes has a default route`);
    }
    checkGroup(router, path, models, problems);
    return;
  }
  if (!Array.isArray(router.routes)) return; // reported by the shape check
  if (router.routes.length === 0) problems.push(`${path}.routes: at least one route is required`);
  const seen = new Set<string>();
  router.routes.forEach((route, index) => {
    const routePath = joinPath(joinPath(path, 'routes'), index);
    if (!isRecord(route)) return;
    checkKeys(route as unknown as Record<string, unknown>, ROUTE_KEYS, routePath, problems);
    if (typeof route.name === 'string') {
      if (seen.has(route.name)) {
        problems.push(`${routePath}.name: more than one route named '${route.name}'`);
      }
      seen.add(route.name);
    }
    checkDescription(route, routePath, problems);
    if (route.model === undefined && route.models === undefined) {
      problems.push(`${routePath}: needs model or models`);
    }
    checkGroup(route, routePath, models, problems);
  });
  if (router.defaultRoute !== undefined && !seen.has(router.defaultRoute)) {
    problems.push(
      `${path}.defaultRoute: unknown route '${router.defaultRoute}'; routes: ${quoteNames([...seen])}`,
    );
  }
}

function checkGroup(group: GroupConfig, path: string, models: string[], problems: string[]): void {
  checkBalance(group, path, problems);
  if (group.model !== undefined && group.models !== undefined) {
    problems.push(`${path}: give model or models, not both`);
    return;
  }
  if (typeof group.model === 'string' && !models.includes(group.model)) {
    problems.push(
      `${path}.model: unknown model '${group.model}'; known models: ${quoteNames(models)}`,
    );
  }
  if (Array.isArray(group.models)) {
    if (group.models.length === 0) problems.push(`${path}.models: at least one model is required`);
    const seen = new Set<string>();
    group.models.forEach((name, index) => {
      if (typeof name !== 'string') return;
      const at = joinPath(joinPath(path, 'models'), index);
      if (!models.includes(name)) {
        problems.push(`${at}: unknown model '${name}'; known models: ${quoteNames(models)}`);
      }
      if (seen.has(name)) problems.push(`${at}: model '${name}' is listed twice`);
      seen.add(name);
    });
  }
}

function checkDescription(route: RouteConfig, path: string, problems: string[]): void {
  const { description } = route;
  if (description === undefined) return;
  const list = Array.isArray(description) ? description : [description];
  if (list.length === 0) problems.push(`${path}.description: must not be an empty list`);
  list.forEach((text, index) => {
    const at = Array.isArray(description)
      ? joinPath(joinPath(path, 'description'), index)
      : joinPath(path, 'description');
    if (typeof text !== 'string' || text.trim() === '') {
      problems.push(`${at}: must be a non-blank string`);
    }
  });
}

function checkState(state: unknown, problems: string[]): void {
  try {
    checkRouteStateConfig(state, 'state');
  } catch (error) {
    if (!(error instanceof InvalidConfigurationException)) throw error;
    problems.push(scrubCredentials(error.message).replace(/^(state[\w.[\]]*) /, '$1: '));
  }
}

function checkKeys(
  value: Record<string, unknown>,
  known: ReadonlySet<string>,
  path: string,
  problems: string[],
): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) {
      problems.push(
        `${joinPath(path, key) || key}: unknown setting; known: ${[...known].join(', ')}`,
      );
    }
  }
}

function validated<T extends object>(
  type: new () => T,
  value: unknown,
  path: string,
  problems: string[],
): T {
  if (!isRecord(value)) {
    problems.push(`${path || '(root)'}: must be a mapping`);
    return new type();
  }
  const instance = plainToInstance(type, value);
  collect(validateSync(instance, { forbidUnknownValues: false }), path, problems);
  return instance;
}

function collect(errors: ValidationError[], path: string, problems: string[]): void {
  for (const error of errors) {
    const at = /^\d+$/.test(error.property)
      ? joinPath(path, Number(error.property))
      : joinPath(path, error.property);
    for (const message of Object.values(error.constraints ?? {})) {
      const text = message.startsWith(`${error.property} `)
        ? message.slice(error.property.length + 1)
        : message;
      problems.push(`${at}: ${text}`);
    }
    collect(error.children ?? [], at, problems);
  }
}

function entries(value: unknown, path: string, problems: string[]): [string, unknown][] {
  if (value === undefined) return [];
  if (!isRecord(value)) {
    // the shape check already reported it
    return [];
  }
  const result: [string, unknown][] = [];
  for (const [name, item] of Object.entries(value)) {
    if (name.trim() === '') {
      problems.push(`${path}: a name is blank`);
      continue;
    }
    result.push([name, item]);
  }
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
