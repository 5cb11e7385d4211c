import { EmbeddedVectorDecisionModel } from '../../core/decision/models/embedded-vector-decision-model.js';
import { defaultModelRouterFactories } from '../../config/default-model-router-factories.js';
import { demoModelFactory } from '../../config/provider-model-factories.js';
import type { ModelRouterFactories } from '../../config/model-router-factories.js';
import { routeProbabilityIdentity } from '../call/gateway-call-scope.js';

/**
 * The built-in model and decision types, with two gateway touches: `demo` models state the route
 * probability of the call they answer, and `embedded` decision models load their vectors at
 * start-up rather than on the first request.
 */
export function gatewayFactories(): ModelRouterFactories {
  const factories = defaultModelRouterFactories();
  const embedded = factories.decisionModelType('embedded')!;
  return factories
    .registerDecisionModelType('embedded', (settings, context) => {
      const model = embedded(settings, context);
      if (model instanceof EmbeddedVectorDecisionModel) model.preload();
      return model;
    })
    .registerModelType('demo', demoModelFactory({ identity: routeProbabilityIdentity }));
}
