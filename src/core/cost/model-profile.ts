import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';

/** USD per million tokens. */
export interface ModelPricing {
  readonly input: number;
  readonly output: number;
  /** Price of prompt tokens served from the provider's cache; default: `input`. */
  readonly cachedInput?: number;
  /** Price of prompt tokens written to the provider's cache (Anthropic's); default: `input`. */
  readonly cacheWrite?: number;
}

/** What the provider allows per minute. */
export interface ModelLimits {
  readonly rpm?: number;
  readonly tpm?: number;
}

/** What a model costs, holds and may take: the facts cost, checks and balancers read. */
export interface ModelProfile {
  readonly pricing?: ModelPricing;
  /** Tokens the model can hold: prompt plus output. */
  readonly contextWindow?: number;
  /** The most output the model produces in one answer. */
  readonly maxOutputTokens?: number;
  readonly limits?: ModelLimits;
  /** Share of traffic under the `weighted` balancer; default 1. */
  readonly weight?: number;
  /**
   * Without `pricing`, when a budget applies to a call: `refuse` it (UnpricedModelException),
   * or `allow` it (it is charged only what its answer's cost attribute says). Default `allow`,
   * as registered models always were; `provider/model-id` models get the configuration's
   * `unpricedUnderBudget`, default `refuse`.
   */
  readonly unpricedUnderBudget?: UnpricedUnderBudget;
}

export const UNPRICED_UNDER_BUDGET = ['refuse', 'allow'] as const;
export type UnpricedUnderBudget = (typeof UNPRICED_UNDER_BUDGET)[number];

/** The metadata key of a model's profile on its ChatModelWrapper. */
export const MODEL_PROFILE = 'profile';

const EMPTY: ModelProfile = Object.freeze({});

/** The model's profile: its wrapper metadata, else one the ChatModel itself carries. */
export function profileOf(model: ChatModelWrapper): ModelProfile {
  const fromMetadata = model.metadata?.get(MODEL_PROFILE);
  if (fromMetadata && typeof fromMetadata === 'object') return fromMetadata as ModelProfile;
  const own = (model.model as { profile?: unknown }).profile;
  return own && typeof own === 'object' ? (own as ModelProfile) : EMPTY;
}

/** Checks a profile once, at construction, naming the model and the field that is wrong. */
export function validateProfile(profile: unknown, where: string): ModelProfile {
  if (profile === undefined) return EMPTY;
  if (typeof profile !== 'object' || profile === null) {
    throw new InvalidConfigurationException(`${where}: a model profile must be an object.`);
  }
  const p = profile as Record<string, unknown>;
  if (p.pricing !== undefined) {
    const pricing = p.pricing as Record<string, unknown>;
    if (typeof pricing !== 'object' || pricing === null) {
      throw new InvalidConfigurationException(
        `${where}.pricing must be { input, output, cachedInput?, cacheWrite? } in USD per million tokens.`,
      );
    }
    for (const field of ['input', 'output'])
      nonNegative(pricing[field], `${where}.pricing.${field}`);
    for (const field of ['cachedInput', 'cacheWrite']) {
      if (pricing[field] !== undefined) nonNegative(pricing[field], `${where}.pricing.${field}`);
    }
  }
  for (const field of ['contextWindow', 'maxOutputTokens']) {
    if (p[field] !== undefined) positiveInteger(p[field], `${where}.${field}`);
  }
  if (p.limits !== undefined) {
    const limits = p.limits as Record<string, unknown>;
    if (typeof limits !== 'object' || limits === null) {
      throw new InvalidConfigurationException(`${where}.limits must be { rpm?, tpm? }.`);
    }
    for (const field of ['rpm', 'tpm']) {
      if (limits[field] !== undefined) positiveInteger(limits[field], `${where}.limits.${field}`);
    }
  }
  if (
    p.unpricedUnderBudget !== undefined &&
    !(UNPRICED_UNDER_BUDGET as readonly unknown[]).includes(p.unpricedUnderBudget)
  ) {
    throw new InvalidConfigurationException(
      `${where}.unpricedUnderBudget must be 'refuse' or 'allow'; got ${String(p.unpricedUnderBudget)}.`,
    );
  }
  if (p.weight !== undefined && !(typeof p.weight === 'number' && p.weight > 0)) {
    throw new InvalidConfigurationException(
      `${where}.weight must be a positive number (a share of traffic); got ${String(p.weight)}.`,
    );
  }
  return profile as ModelProfile;
}

function nonNegative(value: unknown, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidConfigurationException(
      `${field} must be a price in USD per million tokens (a number ≥ 0); got ${String(value)}.`,
    );
  }
}

function positiveInteger(value: unknown, field: string): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new InvalidConfigurationException(
      `${field} must be a whole number ≥ 1; got ${String(value)}.`,
    );
  }
}
