import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { isChatModel, type ChatModel } from '../../core/chat/chat-model.js';
import type {
  ModelRouterModuleExtras,
  ModelRouterModuleOptions,
} from './model-router-module-options.js';
import { quoteNames } from '../../core/errors/quote-names.js';
import { NAME_FAULTS, unknownName } from '../../config/config-wording.js';
import { partsBuiltFromConfiguration } from './configured-options.js';
import { checkResponseCacheConfig } from '../../core/cache/cache-config.js';

const STORE_METHODS = [
  'getCircuit',
  'compareAndSetCircuit',
  'listCircuits',
  'addTokens',
  'getTokens',
  'getSticky',
  'setSticky',
] as const;

/**
 * Checks the module options once, at start-up, and reports every problem at once, each one
 * prefixed with the option's path, so a misconfigured app fails before serving anything. The
 * parts `buildModelRouterOptions` built from a validated configuration were checked by its
 * schema, with the same wording, and are not checked again; what was given in code is.
 */
export function validateModuleOptions(
  options: ModelRouterModuleOptions | undefined,
  extras: ModelRouterModuleExtras = {},
): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidConfigurationException(
      'ModelRouterModule options are missing: forRoot(options) or the forRootAsync factory must return an object with `routers`',
    );
  }
  const problems: string[] = [];
  const built = partsBuiltFromConfiguration(options);
  const routers = built.names
    ? options.routers
    : checkNamedModels(options.routers, 'routers', problems);
  const models = built.names
    ? (options.models ?? {})
    : checkNamedModels(options.models ?? {}, 'models', problems);
  if (!built.names) checkNames(options, routers, models, problems);
  // forRootAsync declares names before its factory runs: they must be what it returned
  checkDeclaredNames(extras.routerNames, routers, 'routerNames', 'routers', problems);
  checkDeclaredNames(extras.modelNames, models, 'modelNames', 'models', problems);
  if (options.stateStore !== undefined && !built.stateStore) {
    checkStateStore(options.stateStore, problems);
  }
  checkInterceptors(options.interceptors, problems);
  if (options.cache !== undefined) {
    try {
      checkResponseCacheConfig(options.cache, Object.keys(routers ?? {}));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0) {
    throw new InvalidConfigurationException(
      `Invalid ModelRouterModule options:\n  - ${problems.join('\n  - ')}`,
    );
  }
}

/** The names the configuration schema checks too, with the same wording. */
function checkNames(
  options: ModelRouterModuleOptions,
  routers: Record<string, ChatModel> | undefined,
  models: Record<string, ChatModel> | undefined,
  problems: string[],
): void {
  if (routers && Object.keys(routers).length === 0) {
    problems.push(NAME_FAULTS.noRouter);
  }
  if (routers && models) {
    for (const name of Object.keys(routers)) {
      if (Object.hasOwn(models, name)) {
        problems.push(NAME_FAULTS.routerAndModel(name));
      }
    }
  }
  const routerNames = Object.keys(routers ?? {});
  if (options.defaultRouter !== undefined && !routerNames.includes(options.defaultRouter)) {
    problems.push(
      `defaultRouter: ${unknownName('router', String(options.defaultRouter), routerNames)}`,
    );
  }
}

function checkStateStore(store: unknown, problems: string[]): void {
  const missing = STORE_METHODS.filter(
    (method) => typeof (store as Record<string, unknown> | null)?.[method] !== 'function',
  );
  if (missing.length > 0) {
    problems.push(`stateStore: not a RouteStateStore (missing ${missing.join(', ')})`);
  }
}

function checkInterceptors(interceptors: unknown, problems: string[]): void {
  if (interceptors === undefined) return;
  if (!Array.isArray(interceptors)) {
    problems.push('interceptors: must be an array of ChatInterceptor instances or classes');
    return;
  }
  interceptors.forEach((interceptor: unknown, index) => {
    const isClass = typeof interceptor === 'function';
    const isInstance =
      typeof interceptor === 'object' &&
      interceptor !== null &&
      typeof (interceptor as { intercept?: unknown }).intercept === 'function';
    if (!isClass && !isInstance) {
      problems.push(`interceptors[${index}]: needs an intercept(context, next) method`);
    }
  });
}

function checkNamedModels(
  value: unknown,
  path: string,
  problems: string[],
): Record<string, ChatModel> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${path}: must be an object mapping names to chat models`);
    return undefined;
  }
  for (const [name, model] of Object.entries(value)) {
    if (name.trim() === '') problems.push(NAME_FAULTS.blank(path));
    if (!isChatModel(model)) {
      problems.push(`${path}.${name}: not a ChatModel (needs a chat(request, options) function)`);
    }
  }
  return value as Record<string, ChatModel>;
}

function checkDeclaredNames(
  declared: string[] | undefined,
  registered: Record<string, ChatModel> | undefined,
  declaredPath: string,
  registeredPath: string,
  problems: string[],
): void {
  if (!declared || !registered) return;
  const seen = new Set<string>();
  for (const name of declared) {
    if (seen.has(name)) problems.push(`${declaredPath}: '${name}' is listed more than once`);
    seen.add(name);
    if (!Object.hasOwn(registered, name)) {
      problems.push(
        `${declaredPath}: '${name}' is declared but the options factory returned no ${registeredPath}.${name}; known: ${quoteNames(Object.keys(registered))}`,
      );
    }
  }
}
