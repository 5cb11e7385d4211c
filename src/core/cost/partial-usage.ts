import type { ChatRequest } from '../chat/request.js';
import type { TokenUsage } from '../chat/response.js';
import { estimateInputTokens } from './usage-estimate.js';

/** What an attempt produced before it ended: characters of text and arguments, and deltas. */
export interface ProducedOutput {
  characters: number;
  /** Stream events that carried output: a provider sends at least one token in each. */
  deltas: number;
}

/**
 * What a call that ended before its answer was complete used: its prompt, and what it produced
 * so far (text, tool-call arguments). A cut stream never receives the provider's usage, which
 * comes with the last chunk, so both are estimated (`estimated: true`): the prompt as
 * `estimateInputTokens` counts it, four characters per output token and never fewer output
 * tokens than deltas received.
 */
export function partialUsage(request: ChatRequest, produced: ProducedOutput): TokenUsage {
  const inputTokens = estimateInputTokens(request);
  const outputTokens = Math.max(Math.ceil(produced.characters / 4), produced.deltas);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, estimated: true };
}

/** Counts an attempt's output as it streams. */
export class OutputCounter implements ProducedOutput {
  characters = 0;
  deltas = 0;

  /** Adds an event's output; text-less events add nothing. */
  add(text: string | undefined): void {
    if (!text) return;
    this.characters += text.length;
    this.deltas += 1;
  }
}
