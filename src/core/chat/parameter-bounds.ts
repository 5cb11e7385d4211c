import { REASONING_EFFORTS } from './request.js';

/** The most entries a `logitBias` may hold (OpenAI's own bound). */
export const MAX_LOGIT_BIAS_ENTRIES = 300;
/** The longest `user` a request may carry (OpenAI's own bound). */
export const MAX_USER_LENGTH = 256;
/** The longest `serviceTier` name: tiers are short words. */
const MAX_SERVICE_TIER_LENGTH = 64;

/**
 * What is wrong with the forwarded sampling parameters of a request (starting with the field's
 * name), or undefined. Checked before any model is called: an out-of-range value is the caller's
 * mistake, and a provider's 400 for it would otherwise count against the model.
 */
export function parametersProblem(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'parameters must be an object when present';
  }
  const p = value as Record<string, unknown>;
  if (p.seed !== undefined && !Number.isSafeInteger(p.seed)) {
    return 'parameters.seed must be an integer';
  }
  for (const field of ['frequencyPenalty', 'presencePenalty'] as const) {
    if (p[field] !== undefined && !inRange(p[field], -2, 2)) {
      return `parameters.${field} must be a number from -2 to 2`;
    }
  }
  if (p.logitBias !== undefined) {
    const problem = logitBiasProblem(p.logitBias);
    if (problem) return `parameters.logitBias ${problem}`;
  }
  if (p.logprobs !== undefined && typeof p.logprobs !== 'boolean') {
    return 'parameters.logprobs must be a boolean';
  }
  if (
    p.topLogprobs !== undefined &&
    !(Number.isInteger(p.topLogprobs) && inRange(p.topLogprobs, 0, 20))
  ) {
    return 'parameters.topLogprobs must be an integer from 0 to 20';
  }
  if (p.topK !== undefined && !(Number.isSafeInteger(p.topK) && (p.topK as number) >= 1)) {
    return 'parameters.topK must be a positive integer';
  }
  if (p.user !== undefined && !(typeof p.user === 'string' && p.user.length <= MAX_USER_LENGTH)) {
    return `parameters.user must be a string of at most ${MAX_USER_LENGTH} characters`;
  }
  if (p.parallelToolCalls !== undefined && typeof p.parallelToolCalls !== 'boolean') {
    return 'parameters.parallelToolCalls must be a boolean';
  }
  if (
    p.reasoningEffort !== undefined &&
    !(REASONING_EFFORTS as readonly unknown[]).includes(p.reasoningEffort)
  ) {
    return `parameters.reasoningEffort must be one of ${REASONING_EFFORTS.join(', ')}`;
  }
  if (
    p.serviceTier !== undefined &&
    !(typeof p.serviceTier === 'string' && /^[a-z_]{1,64}$/.test(p.serviceTier))
  ) {
    return `parameters.serviceTier must be a lower-case word of at most ${MAX_SERVICE_TIER_LENGTH} letters`;
  }
  return undefined;
}

function logitBiasProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'must be an object of token id to bias';
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_LOGIT_BIAS_ENTRIES) {
    return `must have at most ${MAX_LOGIT_BIAS_ENTRIES} entries`;
  }
  for (const [token, bias] of entries) {
    if (!/^\d{1,10}$/.test(token)) return 'keys must be token ids (decimal integers)';
    if (!inRange(bias, -100, 100)) return 'values must be numbers from -100 to 100';
  }
  return undefined;
}

function inRange(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && value >= min && value <= max;
}
