import type { ChatRequest } from '../chat/request.js';
import type { TokenUsage } from '../chat/response.js';
import { estimatePromptTokens } from './token-estimate.js';

/** What an attempt produced before it ended: characters of text and arguments, and deltas. */
export interface ProducedOutput {
  characters: number;
  /** Stream events that carried output: a provider sends at least one token in each. */
  deltas: number;
}

/**
 * What a call that ended before its answer was complete used: its prompt, and what it produced
 * so far (text, tool-call arguments). A cut stream never receives the provider's usage, which
 * comes with the last chunk, so both are estimated: four characters per token, and never fewer
 * output tokens than deltas received. Never zero: the provider read the prompt.
 */
export function partialUsage(request: ChatRequest, produced: ProducedOutput): TokenUsage {
  const inputTokens = Math.max(1, estimatePromptTokens(request));
  const outputTokens = Math.max(Math.ceil(produced.characters / 4), produced.deltas);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
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
