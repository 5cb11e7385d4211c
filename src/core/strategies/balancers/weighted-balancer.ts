import type { ChatRequest } from '../../chat/request.js';
import { profileOf } from '../../cost/model-profile.js';
import { InvalidConfigurationException } from '../../errors/exceptions.js';
import type { ChatModelWrapper } from '../../chat/chat-model-wrapper.js';
import { Balancer, type BalancerOptions } from './balancer.js';

export interface WeightedBalancerOptions extends BalancerOptions {
  /** Weights by model name; a model's profile `weight` wins; default 1. */
  weights?: Record<string, number>;
}

/** Longer cycles are scaled down: the share error stays below 1e-4. */
const MAX_PERIOD = 10_000;

/**
 * Smooth weighted round-robin (nginx's): over every cycle of sum(weights) calls each model gets
 * exactly its weight, spread out rather than in bursts. The cycle is fixed per set of candidates,
 * and the position in it is a counter in the store, so replicas sharing a store walk one cycle
 * together and the shares hold across all of them.
 */
export class WeightedBalancer extends Balancer {
  readonly name = 'weighted' as const;
  protected override readonly spreads = true;
  private readonly weights: Record<string, number>;
  private readonly cycles = new Map<string, readonly number[]>();

  constructor(options: WeightedBalancerOptions = {}) {
    super(options);
    this.weights = { ...options?.weights };
    for (const [model, weight] of Object.entries(this.weights)) {
      if (!(typeof weight === 'number' && Number.isFinite(weight) && weight > 0)) {
        throw new InvalidConfigurationException(
          `weights.${model} must be a positive number; got ${String(weight)}.`,
        );
      }
    }
  }

  override weightOf(model: ChatModelWrapper): number {
    return profileOf(model).weight ?? this.weights[model.name] ?? 1;
  }

  protected pick(models: readonly ChatModelWrapper[], _request: ChatRequest): ChatModelWrapper {
    const weights = models.map((model) => this.weightOf(model));
    const id = models.map((model, i) => `${model.name}=${weights[i]}`).join(',');
    let cycle = this.cycles.get(id);
    if (!cycle) {
      cycle = smoothCycle(integerWeights(weights));
      this.cycles.set(id, cycle);
    }
    const key = `${this.scope}:cycle:${id}`;
    const position = Math.round(this.store.getTokens(key));
    // not awaited: the local view counts it at once; replicas see it within a refresh
    void Promise.resolve(this.store.addTokens(key, 1)).catch(() => undefined);
    return models[cycle[position % cycle.length]!]!;
  }
}

/** Whole-number weights with the same ratios (as close as MAX_PERIOD allows). */
function integerWeights(weights: readonly number[]): number[] {
  const whole = weights.every(Number.isInteger);
  let scaled = whole ? [...weights] : weights.map((w) => Math.max(1, Math.round(w * 1000)));
  const divisor = scaled.reduce(gcd);
  scaled = scaled.map((w) => w / divisor);
  const total = scaled.reduce((a, b) => a + b, 0);
  if (total <= MAX_PERIOD) return scaled;
  return scaled.map((w) => Math.max(1, Math.round((w * MAX_PERIOD) / total)));
}

/** One cycle of smooth weighted round-robin, as indexes into the weights. */
function smoothCycle(weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const current = weights.map(() => 0);
  const cycle: number[] = [];
  for (let step = 0; step < total; step++) {
    let best = 0;
    for (let i = 0; i < weights.length; i++) {
      current[i]! += weights[i]!;
      if (current[i]! > current[best]!) best = i;
    }
    current[best]! -= total;
    cycle.push(best);
  }
  return cycle;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
