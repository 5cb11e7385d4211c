import type { AiMessage } from '../chat/messages.js';
import type { ChatRequest } from '../chat/request.js';
import type { ChatResponse, TokenUsage } from '../chat/response.js';
import { estimatePromptTokens } from './token-estimate.js';

/**
 * The prompt tokens of a request when no provider counted them: four characters a token, tool
 * schemas included (`estimatePromptTokens`, what reservations and context windows use too).
 * Never zero: the provider read the prompt.
 */
export function estimateInputTokens(request: ChatRequest): number {
  return Math.max(1, estimatePromptTokens(request));
}

/** The output tokens of an answer: four characters a token of its text and tool calls. */
export function estimateOutputTokens(message: AiMessage | undefined): number {
  let characters = message?.text?.length ?? 0;
  for (const call of message?.toolCalls ?? [])
    characters += call.name.length + call.arguments.length;
  return Math.ceil(characters / 4);
}

/**
 * The response with every token count it lacks estimated, and `tokenUsage.estimated` set: an
 * upstream that reports no usage (or counts that were dropped as nonsense) would otherwise be
 * charged nothing by budgets, `tpm` windows and cost. A count the provider gave is kept; a side
 * it did not give is estimated (`estimateInputTokens`, `estimateOutputTokens`), or derived from
 * its total when that and the other side were reported. The same response when nothing lacks.
 */
export function withEstimatedUsage(request: ChatRequest, response: ChatResponse): ChatResponse {
  const reported = response?.tokenUsage;
  let input = reported?.inputTokens;
  let output = reported?.outputTokens;
  if (input !== undefined && output !== undefined) return response;
  const total = reported?.totalTokens;
  let estimated = false;
  if (input === undefined && output !== undefined && total !== undefined && total >= output) {
    input = total - output;
  } else if (input === undefined) {
    // a reported total still bounds the split: the estimate only says how much was prompt
    input = estimateInputTokens(request);
    if (output === undefined && total !== undefined) input = Math.min(input, total);
    estimated = true;
  }
  if (output === undefined && total !== undefined && total >= input) output = total - input;
  else if (output === undefined) {
    output = estimateOutputTokens(response?.aiMessage);
    estimated = true;
  }
  const usage: TokenUsage = { ...reported, inputTokens: input, outputTokens: output };
  usage.totalTokens = input + output;
  if (estimated) usage.estimated = true;
  return { ...response, tokenUsage: usage };
}
