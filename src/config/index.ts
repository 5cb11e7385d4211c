// The YAML configuration: schema, validation, and the factories that turn it into models.
export {
  loadModelRouterConfig,
  parseModelRouterConfig,
  DEFAULT_MODEL_ROUTER_CONFIG_PATH,
  MODEL_ROUTER_CONFIG_ENV,
  type LoadModelRouterConfigOptions,
} from './load-model-router-config.js';
export {
  configuredBreaker,
  CONFIGURED_BREAKER_DEFAULTS,
  type ConfiguredBreaker,
} from './configured-breaker.js';
export { readModelRouterConfigNames } from './model-router-config-names.js';
// for apps that keep sections of their own in the same file (the demo gateway's `auth`)
export { interpolateEnv } from './interpolate-env.js';
export {
  ModelRouterFactories,
  pickSettings,
  type ModelFactory,
  type ModelFactoryContext,
  type ModelTypeOptions,
  type DecisionModelFactory,
  type DecisionModelFactoryContext,
} from './model-router-factories.js';
export { defaultModelRouterFactories } from './default-model-router-factories.js';
export { registerBuiltinDecisionModelTypes } from './builtin-decision-model-factories.js';
export { registerProviderModelTypes, demoModelFactory } from './provider-model-factories.js';
export {
  ModelRouterConfig,
  RouterConfig,
  RouteConfig,
  GroupConfig,
  DecisionConfig,
  ModelConfig,
  ProviderConfig,
  FailureWindowConfig,
  GROUP_STRATEGIES,
  type GroupStrategy,
} from './model-router-config.js';
export { InvalidModelRouterConfigException } from './invalid-model-router-config.exception.js';
export { buildModel, type ModelSpec } from './build-model.js';
export {
  providerModelSource,
  type ProviderFactory,
  type DisabledProvider,
} from './provider-model-source.js';
export { providerEmbeddingSource, type EmbeddingFactory } from './provider-embedding-source.js';
export {
  MODEL_PROFILE_KEYS,
  configuredProfile,
  profileMetadata,
  groupBalancer,
} from './cost-config.js';
