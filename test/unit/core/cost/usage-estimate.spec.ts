import { describe, expect, it } from '@jest/globals';
import { systemMessage, userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { addUsage } from '../../../../src/core/cost/cost.js';
import {
  estimateInputTokens,
  estimateOutputTokens,
  withEstimatedUsage,
} from '../../../../src/core/cost/usage-estimate.js';

// 400 + 40 characters: 110 tokens
const request = { messages: [systemMessage('s'.repeat(40)), userMessage('u'.repeat(400))] };
const PROMPT = 110;
const answer = (tokenUsage?: ChatResponse['tokenUsage']): ChatResponse => ({
  aiMessage: { role: 'assistant', text: 'a'.repeat(200) }, // 50 tokens
  ...(tokenUsage ? { tokenUsage } : {}),
});

describe('usage estimated where a provider reported none', () => {
  it('counts four characters a token, tool calls included; a prompt is never free', () => {
    expect(estimateInputTokens(request)).toBe(PROMPT);
    expect(estimateInputTokens({ messages: [] })).toBe(1);
    const toolCall = { id: 'c1', name: 'lookup', arguments: '{"city":"Paris"}' };
    // "lookup" + the arguments: 22 characters
    expect(estimateOutputTokens({ role: 'assistant', toolCalls: [toolCall] })).toBe(6);
    expect(estimateOutputTokens(undefined)).toBe(0);
  });

  it('estimates both sides of an answer without usage, and says so', () => {
    expect(withEstimatedUsage(request, answer()).tokenUsage).toEqual({
      inputTokens: PROMPT,
      outputTokens: 50,
      totalTokens: PROMPT + 50,
      estimated: true,
    });
    // counts dropped as nonsense leave an empty usage: the same
    expect(withEstimatedUsage(request, answer({})).tokenUsage?.estimated).toBe(true);
  });

  it('keeps what was reported, and estimates only the side that is missing', () => {
    const whole = answer({ inputTokens: 7, outputTokens: 9, totalTokens: 16 });
    expect(withEstimatedUsage(request, whole)).toBe(whole);
    // the prompt reported at message_start, the output count never came
    expect(withEstimatedUsage(request, answer({ inputTokens: 7 })).tokenUsage).toEqual({
      inputTokens: 7,
      outputTokens: 50,
      totalTokens: 57,
      estimated: true,
    });
    const cached = answer({ inputTokens: 7, cachedInputTokens: 5 });
    expect(withEstimatedUsage(request, cached).tokenUsage?.cachedInputTokens).toBe(5);
  });

  it('derives a missing side from a reported total, without marking it', () => {
    expect(
      withEstimatedUsage(request, answer({ outputTokens: 9, totalTokens: 30 })).tokenUsage,
    ).toEqual({ inputTokens: 21, outputTokens: 9, totalTokens: 30 });
    // a total alone: kept, and split with the prompt's estimate
    expect(withEstimatedUsage(request, answer({ totalTokens: 500 })).tokenUsage).toEqual({
      inputTokens: PROMPT,
      outputTokens: 500 - PROMPT,
      totalTokens: 500,
      estimated: true,
    });
    // a total smaller than the side reported is nonsense: the other side is estimated
    expect(
      withEstimatedUsage(request, answer({ inputTokens: 40, totalTokens: 30 })).tokenUsage,
    ).toEqual({ inputTokens: 40, outputTokens: 50, totalTokens: 90, estimated: true });
  });

  it('keeps the mark when usages are added (a continued stream)', () => {
    const estimated = withEstimatedUsage(request, answer()).tokenUsage;
    expect(addUsage(estimated, { inputTokens: 1, outputTokens: 1 }).estimated).toBe(true);
    expect(addUsage({ inputTokens: 1 }, { inputTokens: 1 }).estimated).toBeUndefined();
  });
});
