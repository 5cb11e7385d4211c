import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse, TokenUsage } from '../chat/response.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import { addUsage, costOf, estimateTextTokens, roundUsd } from './cost.js';
import { estimateInputTokens } from './usage-estimate.js';
import { profileOf } from './model-profile.js';

/**
 * The usage and cost of stream attempts that were cut after output started, so that a stream
 * rescued by continuation reports what both calls used, not only the continuing one. A cut
 * stream never reports usage, so its share is estimated: its prompt, and the text it produced.
 */
export class SpentBeforeContinuation {
  private usage: TokenUsage | undefined;
  /** Undefined once any cut attempt's model has no pricing: the sum is then unknown too. */
  private cost: number | undefined = 0;

  add(model: ChatModelWrapper, request: ChatRequest, streamed: string): void {
    const inputTokens = estimateInputTokens(request);
    const outputTokens = estimateTextTokens(streamed);
    const usage = {
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
      estimated: true,
    };
    this.usage = this.usage ? addUsage(usage, this.usage) : usage;
    const cost = costOf(usage, profileOf(model).pricing);
    this.cost = cost === undefined || this.cost === undefined ? undefined : this.cost + cost;
  }

  /** The answer's cost plus the cut attempts'; unchanged when nothing was cut. */
  total(answerCost: number | undefined): number | undefined {
    if (!this.usage) return answerCost;
    return answerCost === undefined || this.cost === undefined
      ? undefined
      : roundUsd(answerCost + this.cost);
  }

  /** The response with the cut attempts' usage added to its own. */
  into(response: ChatResponse): ChatResponse {
    if (!this.usage) return response;
    return { ...response, tokenUsage: addUsage(this.usage, response.tokenUsage) };
  }
}
