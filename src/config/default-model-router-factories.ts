import { registerBuiltinDecisionModelTypes } from './builtin-decision-model-factories.js';
import { ModelRouterFactories } from './model-router-factories.js';
import { registerProviderModelTypes } from './provider-model-factories.js';

/**
 * A new registry with the built-in types: models `openai`, `anthropic`, `demo`; decision models
 * `embedded`, `llm`, `embedding`. Add or replace types with `registerModelType` /
 * `registerDecisionModelType`.
 */
export function defaultModelRouterFactories(): ModelRouterFactories {
  return registerProviderModelTypes(registerBuiltinDecisionModelTypes(new ModelRouterFactories()));
}
