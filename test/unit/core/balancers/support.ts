import { wrapModel, type ChatModelWrapper } from '../../../../src/core/chat/chat-model-wrapper.js';
import { MODEL_PROFILE, type ModelProfile } from '../../../../src/core/cost/model-profile.js';
import type { StrategyCallContext } from '../../../../src/core/strategies/model-routing-strategy.js';
import { fakeModel } from '../strategies/fakes.js';

export { manualClock, request, answer, recorder, fakeModel } from '../strategies/fakes.js';

/** A group member with a profile, as ModelRouter wraps it. */
export function member(name: string, profile: ModelProfile = {}): ChatModelWrapper {
  return wrapModel(name, fakeModel(name), [[MODEL_PROFILE, profile]]);
}

/** A fresh attempt context, as ModelRouterCall makes one per attempt. */
export function attempt(extra: Partial<StrategyCallContext> = {}): StrategyCallContext {
  return { attributes: {}, attempt: 1, ...extra };
}

export function counts(picks: ChatModelWrapper[]): Record<string, number> {
  const result: Record<string, number> = {};
  for (const pick of picks) result[pick.name] = (result[pick.name] ?? 0) + 1;
  return result;
}
