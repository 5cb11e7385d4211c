import type { ChatRequestParameters } from '../../core/chat/request.js';
import { EmbeddedVectorDecisionModel } from '../../core/decision/models/embedded-vector-decision-model.js';
import { LocalDemoChatModel } from '../../providers/local/local-demo-chat-model.js';
import { defaultModelRouterFactories } from '../../nest/config/default-model-router-factories.js';
import {
  type ModelRouterFactories,
  pickSettings,
} from '../../nest/config/model-router-factories.js';
import { routeProbabilityIdentity } from '../call/gateway-call-scope.js';

const DEMO_SETTINGS = ['name', 'style', 'failEvery', 'tokenDelayMs', 'parameters'];

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
    .registerModelType('demo', (settings, context) => {
      const { name, parameters, ...options } = pickSettings(
        settings,
        DEMO_SETTINGS,
        'a demo model',
      );
      return new LocalDemoChatModel({
        ...(options as Omit<ConstructorParameters<typeof LocalDemoChatModel>[0], 'name'>),
        name: typeof name === 'string' ? name : context.name,
        identity: routeProbabilityIdentity,
        ...(parameters !== undefined
          ? { defaultRequestParameters: parameters as ChatRequestParameters }
          : {}),
      });
    });
}
