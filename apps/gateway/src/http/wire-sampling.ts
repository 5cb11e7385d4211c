import { z } from 'zod';
import type { ChatRequestParameters } from 'nest-model-router';
import { REASONING_EFFORTS } from 'nest-model-router/core';

/**
 * The sampling parameters the OpenAI-shaped surfaces take under OpenAI's names, with OpenAI's
 * bounds, and their ChatRequestParameters. A value out of range is a 400 naming the field before
 * any provider is called (the library checks the same bounds: parameter-bounds.ts).
 */

export { REASONING_EFFORTS };

/** At most 300 token ids (decimal strings) to a bias of -100..100, as OpenAI takes them. */
export const logitBias = z
  .record(
    z.string().regex(/^\d{1,10}$/, { error: 'keys must be token ids (decimal integers)' }),
    z.number().min(-100).max(100),
  )
  .refine((bias) => Object.keys(bias).length <= 300, 'must have at most 300 entries');

/** OpenAI's tiers are short lower-case words (auto, default, flex, priority). */
export const serviceTier = z
  .string()
  .regex(/^[a-z_]{1,64}$/, { error: 'must be a service tier name such as auto, default or flex' });

/** The wire fields, as each OpenAI-shaped body names them (null: absent, as OpenAI reads it). */
export interface WireSampling {
  seed?: number | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  logit_bias?: Record<string, number> | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  top_k?: number | null;
  user?: string | null;
  parallel_tool_calls?: boolean | null;
  reasoning_effort?: ChatRequestParameters['reasoningEffort'] | null;
  service_tier?: string | null;
}

/** The parameters a body set, under the library's names; nothing for what it left out. */
export function samplingParameters(body: WireSampling): ChatRequestParameters {
  const parameters: ChatRequestParameters = {};
  if (body.seed != null) parameters.seed = body.seed;
  if (body.frequency_penalty != null) parameters.frequencyPenalty = body.frequency_penalty;
  if (body.presence_penalty != null) parameters.presencePenalty = body.presence_penalty;
  if (body.logit_bias != null) parameters.logitBias = body.logit_bias;
  if (body.logprobs != null) parameters.logprobs = body.logprobs;
  if (body.top_logprobs != null) parameters.topLogprobs = body.top_logprobs;
  if (body.top_k != null) parameters.topK = body.top_k;
  if (body.user != null) parameters.user = body.user;
  if (body.parallel_tool_calls != null) parameters.parallelToolCalls = body.parallel_tool_calls;
  if (body.reasoning_effort != null) parameters.reasoningEffort = body.reasoning_effort;
  if (body.service_tier != null) parameters.serviceTier = body.service_tier;
  return parameters;
}
