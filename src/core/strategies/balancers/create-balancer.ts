import { InvalidConfigurationException } from '../../errors/exceptions.js';
import { LowestTokenUsageRoutingStrategy } from '../lowest-token-usage-routing-strategy.js';
import type { ModelRoutingStrategy } from '../model-routing-strategy.js';
import { BALANCERS, OrderedBalancer, type BalancerName, type BalancerOptions } from './balancer.js';
import { LeastBusyBalancer } from './least-busy-balancer.js';
import { LowestCostBalancer } from './lowest-cost-balancer.js';
import { LowestLatencyBalancer } from './lowest-latency-balancer.js';
import { WeightedBalancer } from './weighted-balancer.js';

/** A balancer by its YAML name; `undefined` for `ordered` inside FailoverStrategy (its default). */
export function createBalancer(
  name: BalancerName,
  options: BalancerOptions = {},
): ModelRoutingStrategy {
  switch (name) {
    case 'ordered':
      return new OrderedBalancer(options);
    case 'weighted':
      return new WeightedBalancer(options);
    case 'least-busy':
      return new LeastBusyBalancer(options);
    case 'lowest-latency':
      return new LowestLatencyBalancer(options);
    case 'lowest-cost':
      return new LowestCostBalancer(options);
    case 'lowest-token-usage':
      return new LowestTokenUsageRoutingStrategy(options);
    default:
      throw new InvalidConfigurationException(
        `balance: unknown balancer '${String(name)}'; known: ${BALANCERS.join(', ')}.`,
      );
  }
}
