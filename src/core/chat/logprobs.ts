import type { ChatResponse } from './response.js';
import { attributeKey } from './attribute-key.js';

/**
 * Where provider models report token log-probabilities, when asked for them (`logprobs: true`):
 * `response.aiMessage.attributes.logprobs`, one entry per generated token, in order. An LLM judge
 * reads the first entry's `topLogprobs` to turn its one-token answer into probabilities.
 */
export const LOGPROBS_ATTRIBUTE = 'logprobs';
/**
 * Our providers put a list of TokenLogprob there; a model of the app's own may put OpenAI's
 * `{ content: [...] }` as it came, which the LLM judge accepts too.
 */
export const logprobsAttribute = attributeKey(
  LOGPROBS_ATTRIBUTE,
  (value: unknown): value is TokenLogprob[] | { content: unknown[] } =>
    Array.isArray(value) || Array.isArray((value as { content?: unknown } | null)?.content),
);

export interface TopLogprob {
  token: string;
  /** Natural log of the token's probability: `Math.exp(logprob)` is the probability. */
  logprob: number;
}

export interface TokenLogprob extends TopLogprob {
  /** The most likely tokens at this position, most likely first (as many as `topLogprobs`). */
  topLogprobs: TopLogprob[];
}

/** The token logprobs a response carries, or undefined. */
export function logprobsOf(response: ChatResponse): TokenLogprob[] | undefined {
  const value = logprobsAttribute.of(response.aiMessage.attributes);
  return Array.isArray(value) ? value : undefined;
}

/** The first generated token's top alternatives, or undefined when none were reported. */
export function firstTokenTopLogprobs(response: ChatResponse): TopLogprob[] | undefined {
  const first = logprobsOf(response)?.[0];
  return first && first.topLogprobs.length > 0 ? first.topLogprobs : undefined;
}
