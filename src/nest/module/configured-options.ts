import type { ChatModel } from '../../core/chat/chat-model.js';
import type { RouteStateStore } from '../../core/state/route-state-store.js';
import type { ModelRouterModuleOptions } from './model-router-module-options.js';

/**
 * What `buildModelRouterOptions` built from a configuration the schema has validated: kept on
 * the options under a symbol of this package, so the module does not check those parts again.
 * Enumerable, so options spread into new ones (`{ ...built, interceptors }`) keep it; the parts
 * are compared by identity, so a part replaced by hand is checked like any option given in code.
 */
const BUILT_FROM_CONFIGURATION = Symbol('nest-model-router.built-from-configuration');

interface BuiltParts {
  readonly routers: Readonly<Record<string, ChatModel>>;
  readonly models: Readonly<Record<string, ChatModel>>;
  readonly defaultRouter: string | undefined;
  readonly stateStore: RouteStateStore | undefined;
}

type Marked = ModelRouterModuleOptions & { [BUILT_FROM_CONFIGURATION]?: BuiltParts };

/**
 * Marks options built from a validated configuration; their routers and models are frozen. The
 * state store counts as built only when the configuration's `state` made it (not one given in
 * code).
 */
export function builtFromConfiguration(
  options: ModelRouterModuleOptions & { models: Record<string, ChatModel> },
  builtStateStore: RouteStateStore | undefined,
): ModelRouterModuleOptions {
  const routers = Object.freeze(options.routers);
  const models = Object.freeze(options.models);
  const parts: BuiltParts = {
    routers,
    models,
    defaultRouter: options.defaultRouter,
    stateStore: builtStateStore,
  };
  return { ...options, routers, models, [BUILT_FROM_CONFIGURATION]: parts } as Marked;
}

/** Which parts of the options are still the ones built from a validated configuration. */
export function partsBuiltFromConfiguration(options: ModelRouterModuleOptions): {
  names: boolean;
  stateStore: boolean;
} {
  const built = (options as Marked)[BUILT_FROM_CONFIGURATION];
  if (built === undefined) return { names: false, stateStore: false };
  return {
    names:
      options.routers === built.routers &&
      options.models === built.models &&
      options.defaultRouter === built.defaultRouter,
    stateStore: built.stateStore !== undefined && options.stateStore === built.stateStore,
  };
}
