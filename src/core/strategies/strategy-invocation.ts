import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { ModelRoutingFunction, ModelRoutingStrategy } from './model-routing-strategy.js';

const STRATEGY_SHAPE =
  'a ModelRoutingStrategy (e.g. new FailoverStrategy() or an object with route(models, request)) ' +
  'or a function (models, request) => model';

/** A strategy object as it is (its methods keep `this`), a bare function as `{ route }`. */
export function normalizeStrategy(strategy: unknown, field: string): ModelRoutingStrategy {
  if (typeof strategy === 'function') return { route: strategy as ModelRoutingFunction };
  if (
    typeof strategy === 'object' &&
    strategy !== null &&
    typeof (strategy as { route?: unknown }).route === 'function'
  ) {
    return strategy as ModelRoutingStrategy;
  }
  const got = strategy === undefined || strategy === null ? 'nothing' : typeof strategy;
  throw new InvalidConfigurationException(`${field} must be ${STRATEGY_SHAPE}; got ${got}.`);
}
