import type { ChatResponse } from '../chat/response.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import { costAttributeOf, costOf } from './cost.js';
import { profileOf } from './model-profile.js';

/**
 * What a group's answer cost: priced with the model's profile, or the cost an inner group
 * already put on it (a group inside a group), or undefined when nobody knows the price.
 */
export function costOfResponse(
  response: ChatResponse,
  model: ChatModelWrapper,
): number | undefined {
  const pricing = profileOf(model).pricing;
  return pricing ? costOf(response.tokenUsage, pricing) : costAttributeOf(response);
}
