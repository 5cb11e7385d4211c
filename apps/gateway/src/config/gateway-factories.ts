import {
  callContextOf,
  type ChatCallOptions,
  EmbeddedVectorDecisionModel,
} from 'nest-model-router';
import {
  defaultModelRouterFactories,
  demoModelFactory,
  type ModelRouterFactories,
} from 'nest-model-router/config';

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

/**
 * For LocalDemoChatModel's `identity` option: the route probability of the call being answered
 * (read from the call's record), so a demo answer states how sure the router was.
 */
export function routeProbabilityIdentity(
  options: ChatCallOptions,
): { probability: number } | undefined {
  const probability = callContextOf(options)?.probability;
  return probability === undefined ? undefined : { probability };
}
