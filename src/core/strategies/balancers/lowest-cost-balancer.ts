import type { ChatRequest } from '../../chat/request.js';
import type { ChatResponse } from '../../chat/response.js';
import { estimatePromptTokens } from '../../cost/cost.js';
import { profileOf } from '../../cost/model-profile.js';
import { InvalidConfigurationException } from '../../errors/exceptions.js';
import type { ChatModelWrapper } from '../../chat/chat-model-wrapper.js';
import { countersOf } from '../../state/counter-store.js';
import type { StrategyCallContext } from '../model-routing-strategy.js';
import { Balancer, type BalancerOptions } from './balancer.js';

export interface LowestCostBalancerOptions extends BalancerOptions {
  /** Output tokens expected before a model's own average is known; default 256. */
  expectedOutputTokens?: number;
}

const AVERAGE_TTL_MS = 3_600_000;

/**
 * The model for which this request is estimated to cost least: estimated prompt tokens times
 * the input price, plus the expected output times the output price. The expected output is the
 * request's `maxOutputTokens` when it is lower than the model's average answer length (a
 * decaying average of what it produced), else that average. Models without pricing come last:
 * an unknown price is not a low one. Ties go to the first registered.
 */
export class LowestCostBalancer extends Balancer {
  readonly name = 'lowest-cost' as const;
  private readonly expectedOutput: number;

  constructor(options: LowestCostBalancerOptions = {}) {
    super(options);
    const expected = options?.expectedOutputTokens ?? 256;
    if (!(Number.isFinite(expected) && expected >= 0)) {
      throw new InvalidConfigurationException(
        `expectedOutputTokens must be a number ≥ 0; got ${String(expected)}.`,
      );
    }
    this.expectedOutput = expected;
  }

  /** USD this request is estimated to cost on `model`; undefined without pricing. */
  estimateCost(model: ChatModelWrapper, request: ChatRequest): number | undefined {
    const pricing = profileOf(model).pricing;
    if (!pricing) return undefined;
    const average = countersOf(this.store).getGauge(this.key(model, 'output'));
    const cap = request.parameters?.maxOutputTokens;
    let output = average ?? this.expectedOutput;
    if (cap !== undefined && cap < output) output = cap;
    return (estimatePromptTokens(request) * pricing.input + output * pricing.output) / 1e6;
  }

  onSuccess(
    model: ChatModelWrapper,
    response: ChatResponse,
    _request: ChatRequest,
    _context?: StrategyCallContext,
  ): void {
    const output = response?.tokenUsage?.outputTokens;
    if (typeof output !== 'number' || !(output >= 0)) return;
    const counters = countersOf(this.store);
    const key = this.key(model, 'output');
    const previous = counters.getGauge(key);
    try {
      counters.setGauge(
        key,
        previous === undefined ? output : previous + 0.2 * (output - previous),
        AVERAGE_TTL_MS,
      );
    } catch {
      // a lost sample only delays what the average learns
    }
  }

  protected pick(models: readonly ChatModelWrapper[], request: ChatRequest): ChatModelWrapper {
    let best = models[0]!;
    let lowest = this.estimateCost(best, request) ?? Number.POSITIVE_INFINITY;
    for (let i = 1; i < models.length; i++) {
      const cost = this.estimateCost(models[i]!, request) ?? Number.POSITIVE_INFINITY;
      if (cost < lowest) {
        best = models[i]!;
        lowest = cost;
      }
    }
    return best;
  }
}
