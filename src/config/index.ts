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
  modelRouterConfigSchema,
  providerConfigSchema,
  pricingSchema,
  GROUP_STRATEGIES,
  type ModelRouterConfig,
  type ModelRouterConfigSchema,
  type RouterConfig,
  type RouteConfig,
  type GroupConfig,
  type DecisionConfig,
  type ModelConfig,
  type ProviderConfig,
  type FailureWindowConfig,
  type GroupStrategy,
} from './model-router-config.js';
// for apps that extend the schema with sections of their own (the demo gateway's `auth`)
export { configSchemaParts } from './config-fields.js';
export { InvalidModelRouterConfigException } from './invalid-model-router-config.exception.js';
export { buildModel, type ModelSpec } from './build-model.js';
export {
  providerModelSource,
  type ProviderFactory,
  type ProviderPricingOptions,
  type DisabledProvider,
} from './provider-model-source.js';
export { providerEmbeddingSource, type EmbeddingFactory } from './provider-embedding-source.js';
export {
  MODEL_PROFILE_KEYS,
  configuredProfile,
  profileMetadata,
  groupBalancer,
} from './cost-config.js';
// "did you mean 'x'?" for a name that refers to nothing (the gateway's unknown model too)
export { closestName, didYouMean } from '../core/errors/closest-name.js';
