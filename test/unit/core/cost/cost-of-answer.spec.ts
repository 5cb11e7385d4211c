import { describe, expect, it } from '@jest/globals';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { withCost } from '../../../../src/core/cost/cost.js';
import { MODEL_PROFILE } from '../../../../src/core/cost/model-profile.js';
import { costOfAnswer, costOfResponse } from '../../../../src/core/cost/response-cost.js';

const pricing = { input: 1, output: 2 }; // USD per million tokens
const answer: ChatResponse = {
  aiMessage: { role: 'assistant', text: 'ok' },
  tokenUsage: { inputTokens: 1_000, outputTokens: 500 },
};

describe('costOfAnswer: the one pricing rule', () => {
  it('prices the tokens at the addressed model’s pricing', () => {
    expect(costOfAnswer(answer, pricing)).toBe(0.002);
  });

  it('keeps the cost already on the answer, even where the model has a price', () => {
    // an inner group priced it with the model that answered; a cache hit costs 0
    expect(costOfAnswer(withCost(answer, 0.5), pricing)).toBe(0.5);
    expect(costOfAnswer(withCost(answer, 0), pricing)).toBe(0);
  });

  it('knows no price without either', () => {
    expect(costOfAnswer(answer, undefined)).toBeUndefined();
  });

  it('is what a group charges for its model', () => {
    const model = {
      name: 'outer',
      model: { chat: async () => answer },
      metadata: new Map<string, unknown>([[MODEL_PROFILE, { pricing }]]),
    };
    expect(costOfResponse(answer, model)).toBe(0.002);
    expect(costOfResponse(withCost(answer, 0.25), model)).toBe(0.25);
  });
});
