import type { ChatModel } from '../core/chat/chat-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import {
  type ResilienceOptions,
  ResilientChatModel,
} from '../core/resilience/resilient-chat-model.js';
import { didYouMean } from '../core/errors/closest-name.js';
import type { ModelFactoryContext, ModelRouterFactories } from './model-router-factories.js';

/** A model's configuration: its type, its resilience and the type's own settings. */
export interface ModelSpec {
  type: string;
  /** Retries and timeouts; `false`: none; absent: the type's default. */
  resilience?: ResilienceOptions | false;
  settings: Record<string, unknown>;
}

/**
 * The one way a model's configuration becomes a model, for the module's `models`, the gateway's
 * `provider/model-id` models and any app: the type's factory, then ResilientChatModel unless the
 * configuration (or the type's default) says otherwise. An unknown type names the known ones.
 */
export function buildModel(
  spec: ModelSpec,
  factories: ModelRouterFactories,
  context: ModelFactoryContext,
): ChatModel {
  const registration = factories.modelType(spec.type);
  if (!registration) {
    const types = factories.modelTypeNames();
    throw new InvalidConfigurationException(
      `type: unknown model type '${String(spec.type)}'; registered types: ${types.join(', ')}` +
        didYouMean(String(spec.type), types),
    );
  }
  const model = registration.create(spec.settings, context);
  const { resilience } = spec;
  if (resilience === false || (resilience === undefined && !registration.resilientByDefault)) {
    return model;
  }
  return new ResilientChatModel(model, {
    name: context.name,
    ...resilience,
    ...(context.clock ? { clock: context.clock } : {}),
  });
}
