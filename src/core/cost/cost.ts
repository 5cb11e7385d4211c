import type { ChatResponse, TokenUsage } from '../chat/response.js';
import type { ModelPricing } from './model-profile.js';
import { attributeKey } from '../chat/attribute-key.js';

/** The response attribute holding what the call cost, in USD. Absent when the price is unknown. */
export const COST_ATTRIBUTE = 'model_router_cost_usd';
const costAttribute = attributeKey(
  COST_ATTRIBUTE,
  (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value),
);

/**
 * USD for `usage` at `pricing`, or undefined when either is missing: an unknown price is not a
 * free call. Rounded to a nano-dollar so that sums of many calls stay exact.
 */
export function costOf(
  usage: TokenUsage | undefined,
  pricing: ModelPricing | undefined,
): number | undefined {
  if (!pricing || !usage) return undefined;
  const input = count(usage.inputTokens);
  const output = count(usage.outputTokens);
  if (input === 0 && output === 0 && count(usage.totalTokens) > 0) {
    // only a total: price it all as input, the cheaper side, rather than invent a split
    return roundUsd((count(usage.totalTokens) * pricing.input) / 1e6);
  }
  // cache reads and writes are parts of the prompt, priced apart when the model says how
  const cached = Math.min(input, count(usage.cachedInputTokens));
  const written = Math.min(input - cached, count(usage.cacheWriteInputTokens));
  const cachedPrice = pricing.cachedInput ?? pricing.input;
  const writePrice = pricing.cacheWrite ?? pricing.input;
  return roundUsd(
    ((input - cached - written) * pricing.input +
      cached * cachedPrice +
      written * writePrice +
      output * pricing.output) /
      1e6,
  );
}

/** `usd` in nano-dollars (the integer unit budgets count in). */
export function toNanoUsd(usd: number): number {
  return Math.round(usd * 1e9);
}

export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/** The response with its cost attribute set (or removed, when the cost is unknown). */
export function withCost(response: ChatResponse, cost: number | undefined): ChatResponse {
  const { [COST_ATTRIBUTE]: previous, ...others } = response.aiMessage.attributes ?? {};
  if (cost === undefined && previous === undefined) return response;
  const attributes = cost === undefined ? others : { ...others, ...costAttribute.entry(cost) };
  return { ...response, aiMessage: { ...response.aiMessage, attributes } };
}

/** The cost a response carries, if any. */
export function costAttributeOf(response: ChatResponse | undefined): number | undefined {
  return costAttribute.of(response?.aiMessage?.attributes);
}

/**
 * Both calls' usage, for a stream one model started and another continued. A field the second
 * call did not report stays absent: half of it would pass for the whole.
 */
export function addUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage {
  const usage: TokenUsage = {
    totalTokens: count(a?.totalTokens ?? sum(a)) + count(b?.totalTokens ?? sum(b)),
  };
  if (b?.inputTokens !== undefined)
    usage.inputTokens = count(a?.inputTokens) + count(b.inputTokens);
  if (b?.outputTokens !== undefined) {
    usage.outputTokens = count(a?.outputTokens) + count(b.outputTokens);
  }
  for (const key of ['cachedInputTokens', 'cacheWriteInputTokens'] as const) {
    const both = count(a?.[key]) + count(b?.[key]);
    if (both > 0) usage[key] = both;
  }
  if (a?.estimated === true || b?.estimated === true) usage.estimated = true;
  return usage;
}

// the same estimate the balancers use
export { estimatePromptTokens, estimateTextTokens } from './token-estimate.js';

function sum(usage: TokenUsage | undefined): number {
  return count(usage?.inputTokens) + count(usage?.outputTokens);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
