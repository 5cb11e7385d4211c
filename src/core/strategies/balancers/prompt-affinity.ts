import { createHash } from 'node:crypto';
import type { ChatModelWrapper } from '../../chat/chat-model-wrapper.js';
import { promptPrefixKey } from '../../chat/prompt-prefix.js';
import type { ChatRequest } from '../../chat/request.js';
import { sessionAttribute } from '../../chat/call-attributes.js';
import { estimatePromptTokens } from '../../cost/token-estimate.js';
import { InvalidConfigurationException } from '../../errors/exceptions.js';
import type { StrategyCallContext } from '../model-routing-strategy.js';

/** OpenAI caches prompts from 1,024 tokens on (Anthropic from 1,024 or 2,048): shorter gain nothing. */
export const DEFAULT_AFFINITY_MIN_PROMPT_TOKENS = 1_024;

export interface PromptAffinityOptions {
  /** Prompts shorter than this (estimated tokens) are balanced as usual; default 1,024. */
  minPromptTokens?: number;
}

/** `false`: off; `true` or options: on (the default for balancers that spread calls). */
export type PromptAffinitySetting = boolean | PromptAffinityOptions;

/** The minimum prompt size of a setting, or undefined when affinity is off. */
export function affinityThreshold(setting: PromptAffinitySetting | undefined): number | undefined {
  if (setting === false) return undefined;
  if (setting === undefined || setting === true) return DEFAULT_AFFINITY_MIN_PROMPT_TOKENS;
  if (typeof setting !== 'object' || setting === null) {
    throw new InvalidConfigurationException(
      `promptAffinity must be true, false or { minPromptTokens }; got ${String(setting)}.`,
    );
  }
  const min = setting.minPromptTokens ?? DEFAULT_AFFINITY_MIN_PROMPT_TOKENS;
  if (!Number.isInteger(min) || min < 0) {
    throw new InvalidConfigurationException(
      `promptAffinity.minPromptTokens must be a whole number of tokens ≥ 0; got ${String(min)}.`,
    );
  }
  return min;
}

/**
 * The model that keeps this prompt's provider cache warm: among the candidates (the models
 * that may take a call now), the highest rendezvous score of the prompt's prefix key and the
 * model's name, weighted (`-weight / ln(u)`, so shares follow the weights). A model that leaves
 * the candidates (cooling down) moves only the prefixes it had; the others stay where they
 * were. Undefined when affinity does not apply: a short prompt, or a call with a session
 * (sessions pin on their own).
 */
export function affineModel(
  models: readonly ChatModelWrapper[],
  request: ChatRequest,
  context: StrategyCallContext | undefined,
  minPromptTokens: number,
  weightOf: (model: ChatModelWrapper) => number,
): ChatModelWrapper | undefined {
  if (sessionAttribute.of(context?.attributes)?.trim()) return undefined;
  if (minPromptTokens > 0 && estimatePromptTokens(request) < minPromptTokens) return undefined;
  const key = promptPrefixKey(request);
  if (key === undefined) return undefined;
  let best: ChatModelWrapper | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const model of models) {
    const weight = weightOf(model);
    if (!(weight > 0)) continue;
    const score = -weight / Math.log(unitHash(`${key}\u0000${model.name}`));
    if (score > bestScore) {
      bestScore = score;
      best = model;
    }
  }
  return best;
}

/** A uniform number in (0, 1) from text: 48 bits of its SHA-256. */
function unitHash(text: string): number {
  const bits = createHash('sha256').update(text).digest().readUIntBE(0, 6);
  return (bits + 0.5) / 2 ** 48;
}
