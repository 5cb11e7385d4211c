import { Logger } from '@nestjs/common';
import type { ChatModel } from '../../core/chat/chat-model.js';
import type { Clock } from '../../core/clock.js';
import { DecisionModelChatModelRouter } from '../../core/decision/decision-model-chat-model-router.js';
import { type DecisionLogger, FallbackStrategy } from '../../core/decision/decision-model.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import type { ResilienceOptions } from '../../core/resilience/resilient-chat-model.js';
import { buildModel } from '../../config/build-model.js';
import { RoutingChatModel } from '../../core/routing/routing-chat-model.js';
import type { RouteStateStore } from '../../core/state/route-state-store.js';
import { FailoverStrategy } from '../../core/strategies/failover-strategy.js';
import { ModelRouter } from '../../core/group/model-router.js';
import { limitConcurrency } from '../../core/limits/concurrency-gate.js';
import { createRouteStateStore } from '../../redis/route-state-store-config.js';
import type { RedisStoreLogger } from '../../redis/redis-route-state-store-options.js';
import { scrubCredentials } from '../../core/observability/scrub-credentials.js';
import type { ChatInterceptorRegistration } from '../interceptors/chat-interceptor.js';
import type { ModelRouterModuleOptions } from '../module/model-router-module-options.js';
import { builtFromConfiguration } from '../module/configured-options.js';
import { defaultModelRouterFactories } from '../../config/default-model-router-factories.js';
import { configuredBreaker } from '../../config/configured-breaker.js';
import {
  InvalidModelRouterConfigException,
  joinPath,
} from '../../config/invalid-model-router-config.exception.js';
import type {
  DecisionConfig,
  GroupConfig,
  ModelConfig,
  ModelRouterConfig,
  RouterConfig,
} from '../../config/model-router-config.js';
import type {
  DecisionModelFactory,
  ModelRouterFactories,
} from '../../config/model-router-factories.js';
import { didYouMean } from '../../core/errors/closest-name.js';
import { unknownName } from '../../config/config-wording.js';
import { buildResponseCacheConfig } from '../../config/build-response-cache.js';
import { LEARNING_KEYS, learningOptions } from '../../config/decision-learning-config.js';
import type { ModelProfile } from '../../core/cost/model-profile.js';
import {
  groupBalancer,
  profileMetadata,
  rememberProfile,
  splitProfile,
} from '../../config/cost-config.js';

export interface BuildModelRouterOptions {
  /** Model and decision model types; default: `defaultModelRouterFactories()`. */
  factories?: ModelRouterFactories;
  /** Handed to models, strategies (through the module) and the state store. */
  clock?: Clock;
  /** Warnings of decision routers and the state store; default: Nest's Logger('ModelRouter'). */
  logger?: DecisionLogger & RedisStoreLogger;
  interceptors?: ChatInterceptorRegistration[];
  /** Used instead of the configuration's `state`. */
  stateStore?: RouteStateStore;
  /** The file the configuration was read from, named by the error a problem throws. */
  source?: string;
}

const DECISION_KEYS = ['type', 'minProbability', 'fallback', 'maxMessages', 'question'];
/** Keys of a decision router's learning (teacher, learned examples), not of its model. */
DECISION_KEYS.push(...LEARNING_KEYS);

/**
 * Turns a validated configuration into ModelRouterModule options: models through their type's
 * factory (with resilience), each route or group a ModelRouter with its strategy and breaker,
 * routers with routes a RoutingChatModel over a DecisionModelChatModelRouter, and the state store.
 * Every problem found on the way is reported at once, by path. The configuration is taken as
 * validated (`loadModelRouterConfig`, `parseModelRouterConfig`, or a schema that extends the
 * library's); ModelRouterModule does not check again what was built from it.
 */
export async function buildModelRouterOptions(
  config: ModelRouterConfig,
  options: BuildModelRouterOptions = {},
): Promise<ModelRouterModuleOptions> {
  const factories = options.factories ?? defaultModelRouterFactories();
  const logger = options.logger ?? new Logger('ModelRouter');
  const problems: string[] = [];
  const models = buildModels(config, factories, options.clock, problems);
  const routers: Record<string, ChatModel> = {};
  for (const [name, router] of Object.entries(config.routers)) {
    const built = attempt(joinPath('routers', name), problems, () =>
      buildRouter(name, router, models, factories, { ...options, logger }),
    );
    if (built) routers[name] = built;
  }
  if (problems.length > 0) throw new InvalidModelRouterConfigException(problems, options.source);

  let stateStore = options.stateStore;
  let builtStateStore: RouteStateStore | undefined;
  if (!stateStore && config.state !== undefined) {
    builtStateStore = stateStore = await createRouteStateStore(config.state, {
      logger,
      ...(options.clock ? { clock: options.clock } : {}),
    });
  }
  const cache = await buildResponseCacheConfig(config);
  // the configuration was validated by its schema: the module checks only what was given in code
  return builtFromConfiguration(
    {
      models,
      routers,
      ...(config.defaultRouter !== undefined ? { defaultRouter: config.defaultRouter } : {}),
      ...(config.budgets !== undefined ? { budgets: config.budgets } : {}),
      ...(stateStore
        ? { stateStore, closeStateStoreOnShutdown: builtStateStore !== undefined }
        : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.interceptors ? { interceptors: options.interceptors } : {}),
      ...(cache ? { cache, closeCacheOnShutdown: true } : {}),
    },
    builtStateStore,
  );
}

function buildModels(
  config: ModelRouterConfig,
  factories: ModelRouterFactories,
  clock: Clock | undefined,
  problems: string[],
): Record<string, ChatModel> {
  const models: Record<string, ChatModel> = {};
  for (const [name, model] of Object.entries(config.models)) {
    const path = joinPath('models', name);
    const provider = model.provider !== undefined ? config.providers?.[model.provider] : undefined;
    const {
      type: providerType,
      resilience: providerResilience,
      pricing: providerPricing,
      ...inherited
    } = (provider ?? {}) as Record<string, unknown>;
    const {
      type: ownType,
      provider: _provider,
      resilience: ownResilience,
      firstTokenTimeout,
      idleTimeout,
      answerTimeout,
      concurrency,
      ...settings
    } = model;
    // pricing, limits, context window, weight: the router's to read, not the provider factory's
    const { profile: ownProfile, rest: own } = splitProfile(settings);
    // the provider's price is the default of the models that name it
    const profile =
      providerPricing !== undefined && ownProfile?.pricing === undefined
        ? ({ ...ownProfile, pricing: providerPricing } as ModelProfile)
        : ownProfile;
    const type = ownType ?? (providerType as string | undefined);
    const resilience = withStreamTimeouts(
      ownResilience ?? (providerResilience as ModelConfig['resilience']),
      firstTokenTimeout,
      idleTimeout,
      answerTimeout,
    );
    const built = attempt(path, problems, () =>
      buildModel(
        {
          type: type as string,
          ...(resilience !== undefined
            ? { resilience: resilience as ResilienceOptions | false }
            : {}),
          settings: { ...inherited, ...own },
        },
        factories,
        {
          name,
          path,
          ...(clock ? { clock } : {}),
          ...(model.provider ? { provider: model.provider } : {}),
        },
      ),
    );
    if (built && concurrency !== undefined) {
      attempt(`${path}.concurrency`, problems, () => limitConcurrency(built, concurrency));
    }
    if (built) {
      rememberProfile(built, profile);
      models[name] = built;
    }
  }
  return models;
}

function buildRouter(
  name: string,
  router: RouterConfig,
  models: Record<string, ChatModel>,
  factories: ModelRouterFactories,
  options: BuildModelRouterOptions & { logger: DecisionLogger },
): ChatModel | undefined {
  if (router.routes === undefined) return buildGroup(router, models);
  const routes = router.routes.map((route) => ({
    name: route.name,
    ...(route.description !== undefined ? { description: route.description } : {}),
    ...(route.examples !== undefined ? { examples: route.examples } : {}),
    model: buildGroup(route, models),
  }));
  if (routes.some((route) => route.model === undefined)) return undefined; // a model failed to build
  const decision = router.decision ?? {};
  const decisionModel = buildDecisionModel(name, decision, models, factories, options);
  return new RoutingChatModel({
    routes: routes as { name: string; model: ChatModel }[],
    router: new DecisionModelChatModelRouter(decisionModel, {
      ...(decision.question !== undefined ? { question: decision.question } : {}),
      ...(decision.minProbability !== undefined ? { minProbability: decision.minProbability } : {}),
      ...(decision.maxMessages !== undefined ? { maxMessages: decision.maxMessages } : {}),
      ...(router.targetShare !== undefined ? { targetShare: router.targetShare } : {}),
      fallbackStrategy:
        decision.fallback === 'fail' ? FallbackStrategy.FAIL : FallbackStrategy.DEFAULT_ROUTE,
      logger: options.logger,
      ...learningOptions(decision, (teacher) =>
        buildDecisionModel(name, teacher as DecisionConfig, models, factories, options),
      ),
    }),
    defaultRoute: router.defaultRoute ?? router.routes[0]!.name,
  });
}

function buildDecisionModel(
  router: string,
  decision: DecisionConfig,
  models: Record<string, ChatModel>,
  factories: ModelRouterFactories,
  options: BuildModelRouterOptions & { logger: DecisionLogger },
) {
  const path = joinPath(joinPath('routers', router), 'decision');
  const type = decision.type ?? 'embedded';
  const create = factories.decisionModelType(type);
  if (!create) {
    throw new InvalidConfigurationException(
      `decision.type: unknown decision model type '${type}'; registered types: ${factories.decisionModelTypeNames().join(', ')}` +
        didYouMean(type, factories.decisionModelTypeNames()),
    );
  }
  const settings = Object.fromEntries(
    Object.entries(decision).filter(([key]) => !DECISION_KEYS.includes(key)),
  );
  try {
    return createDecisionModel(create, settings, router, path, models, options);
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    const message = scrubCredentials(error.message);
    throw new InvalidConfigurationException(
      /^[\w.[\]]+: /.test(message) && !message.startsWith('decision.')
        ? `decision.${message}`
        : message.startsWith('decision.')
          ? message
          : `decision: ${message}`,
    );
  }
}

function createDecisionModel(
  create: DecisionModelFactory,
  settings: Record<string, unknown>,
  router: string,
  path: string,
  models: Record<string, ChatModel>,
  options: BuildModelRouterOptions & { logger: DecisionLogger },
) {
  return create(settings, {
    router,
    path,
    logger: options.logger,
    ...(options.clock ? { clock: options.clock } : {}),
    model: (name) => {
      const model = models[name];
      if (!model) {
        throw new InvalidConfigurationException(
          `decision.model: ${unknownName('model', name, Object.keys(models))}`,
        );
      }
      return model;
    },
  });
}

/** A ModelRouter over the group's models with its strategy; undefined if a model is missing. */
function buildGroup(group: GroupConfig, models: Record<string, ChatModel>): ChatModel | undefined {
  const names = group.models ?? (group.model !== undefined ? [group.model] : []);
  if (names.some((model) => models[model] === undefined)) return undefined;
  // The configuration defaults to the probing breaker (one probe, doubling cooldowns, capped);
  // the classes' own defaults stay the seed contract's plain failover.
  const breaker = configuredBreaker(group);
  const delegate = groupBalancer(group);
  const strategy = new FailoverStrategy(delegate ? { ...breaker, delegate } : breaker);
  return new ModelRouter({
    routes: names.map((model) => ({
      name: model,
      model: models[model]!,
      metadata: profileMetadata(models[model]!),
    })),
    routingStrategy: strategy,
    ...(group.continuation !== undefined ? { continuation: group.continuation } : {}),
    ...(group.sessionTtlMs !== undefined ? { sessionTtlMs: group.sessionTtlMs } : {}),
    ...(group.hedge !== undefined ? { hedge: group.hedge } : {}),
  });
}

/** Runs one build step; a configuration error becomes a problem at `path`. */
function attempt<T>(path: string, problems: string[], build: () => T): T | undefined {
  try {
    return build();
  } catch (error) {
    if (error instanceof InvalidModelRouterConfigException) {
      problems.push(...error.problems);
      return undefined;
    }
    const message = scrubCredentials(error instanceof Error ? error.message : String(error));
    // messages that start with a field ("decision.type: …") extend the path
    const field = /^([\w.[\]]+): /.exec(message);
    problems.push(field ? `${path}.${message}` : `${path}: ${message}`);
    return undefined;
  }
}

/**
 * A model's `firstTokenTimeout` / `idleTimeout` / `answerTimeout` join its resilience options
 * (none when `false`).
 */
function withStreamTimeouts(
  resilience: ModelConfig['resilience'],
  firstTokenTimeout: ModelConfig['firstTokenTimeout'],
  idleTimeout: ModelConfig['idleTimeout'],
  answerTimeout?: ModelConfig['answerTimeout'],
): ModelConfig['resilience'] {
  if (
    resilience === false ||
    (firstTokenTimeout === undefined && idleTimeout === undefined && answerTimeout === undefined)
  ) {
    return resilience;
  }
  return {
    ...resilience,
    ...(firstTokenTimeout !== undefined ? { firstTokenTimeout } : {}),
    ...(idleTimeout !== undefined ? { idleTimeout } : {}),
    ...(answerTimeout !== undefined ? { answerTimeout } : {}),
  };
}
