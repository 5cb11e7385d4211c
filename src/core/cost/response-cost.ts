import type { ChatResponse } from '../chat/response.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import { costAttributeOf, costOf } from './cost.js';
import { profileOf, type ModelPricing } from './model-profile.js';

/**
 * What an answer cost, the one pricing rule of the library (groups, budgets, a model addressed
 * directly, the gateway's usage fields). The cost already on the answer wins: whoever put it
 * there stood closer to the model that actually answered (an inner group priced it with that
 * model's profile, a cache hit costs 0). Otherwise the tokens are priced at `pricing`, the
 * profile of the model the caller addressed. Undefined when neither knows a price: an unknown
 * price is not a free call.
 */
export function costOfAnswer(
  response: ChatResponse,
  pricing: ModelPricing | undefined,
): number | undefined {
  return costAttributeOf(response) ?? costOf(response.tokenUsage, pricing);
}

/** What a group's answer from `model` cost (costOfAnswer with the model's profile). */
export function costOfResponse(
  response: ChatResponse,
  model: ChatModelWrapper,
): number | undefined {
  return costOfAnswer(response, profileOf(model).pricing);
}
