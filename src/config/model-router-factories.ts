import type { ChatModel } from '../core/chat/chat-model.js';
import type { Clock } from '../core/clock.js';
import type { DecisionLogger, DecisionModel } from '../core/decision/decision-model.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { didYouMean } from '../core/errors/closest-name.js';

export interface ModelFactoryContext {
  /** The model's name in the configuration. */
  readonly name: string;
  /** Its path, for messages: `models.fast`. */
  readonly path: string;
  readonly clock?: Clock;
  /** The provider entry the settings were inherited from, when the model names one. */
  readonly provider?: string;
}

/** Builds a model of one `type` from its settings (everything but `type`, `provider`, `resilience`). */
export type ModelFactory = (
  settings: Record<string, unknown>,
  context: ModelFactoryContext,
) => ChatModel;

export interface ModelTypeOptions {
  /** Wrap in ResilientChatModel (default retries and timeouts) unless `resilience: false`. */
  resilientByDefault?: boolean;
}

export interface DecisionModelFactoryContext {
  /** The router's name. */
  readonly router: string;
  /** The decision's path: `routers.default.decision`. */
  readonly path: string;
  readonly clock?: Clock;
  readonly logger?: DecisionLogger;
  /** A configured model by name (for an LLM judge); InvalidConfigurationException if unknown. */
  model(name: string): ChatModel;
}

/** Builds a decision model of one `type` from the decision's settings. */
export type DecisionModelFactory = (
  settings: Record<string, unknown>,
  context: DecisionModelFactoryContext,
) => DecisionModel;

interface ModelTypeRegistration extends ModelTypeOptions {
  create: ModelFactory;
}

/**
 * The model and decision model types a configuration may name. Registering a type again replaces
 * it (e.g. the demo app's own `demo` models).
 */
export class ModelRouterFactories {
  private readonly modelTypes = new Map<string, ModelTypeRegistration>();
  private readonly decisionTypes = new Map<string, DecisionModelFactory>();

  registerModelType(type: string, create: ModelFactory, options: ModelTypeOptions = {}): this {
    checkType(type, 'model type');
    if (typeof create !== 'function') {
      throw new InvalidConfigurationException(
        `model type '${type}': the factory must be a function`,
      );
    }
    this.modelTypes.set(type, { create, ...options });
    return this;
  }

  registerDecisionModelType(type: string, create: DecisionModelFactory): this {
    checkType(type, 'decision model type');
    if (typeof create !== 'function') {
      throw new InvalidConfigurationException(
        `decision model type '${type}': the factory must be a function`,
      );
    }
    this.decisionTypes.set(type, create);
    return this;
  }

  modelType(type: string): ModelTypeRegistration | undefined {
    return this.modelTypes.get(type);
  }

  decisionModelType(type: string): DecisionModelFactory | undefined {
    return this.decisionTypes.get(type);
  }

  modelTypeNames(): string[] {
    return [...this.modelTypes.keys()];
  }

  decisionModelTypeNames(): string[] {
    return [...this.decisionTypes.keys()];
  }
}

function checkType(type: string, what: string): void {
  if (typeof type !== 'string' || type.trim() === '') {
    throw new InvalidConfigurationException(`A ${what} needs a non-blank name`);
  }
}

/**
 * Settings of a type as given, checked against the keys the type knows: an unknown key is most
 * likely a typo, so it is a configuration error naming the key and what is known.
 */
export function pickSettings(
  settings: Record<string, unknown>,
  known: readonly string[],
  what: string,
): Record<string, unknown> {
  const unknown = Object.keys(settings).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    // worded like the schema's unknown keys, and the builder puts the model's path before it
    throw new InvalidConfigurationException(
      unknown
        .map(
          (key) =>
            `${key}: unknown setting of ${what}; known: ${known.join(', ')}${didYouMean(key, known)}`,
        )
        .join('; '),
    );
  }
  return { ...settings };
}
