import { describe, expect, it } from '@jest/globals';
import { addUsage, costOf } from '../../../../src/core/cost/cost.js';
import { toTokenUsage as openAiUsage } from '../../../../src/providers/openai/openai-response-mapper.js';
import {
  cacheTokensOf,
  inputTokensOf,
  toTokenUsage as anthropicUsage,
} from '../../../../src/providers/anthropic/anthropic-response-mapper.js';

// USD per million tokens: a cache read at a tenth of input, a write at 1.25×
const pricing = { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 };

describe('cached input tokens are priced apart', () => {
  it('prices cache reads at cachedInput and writes at cacheWrite, the rest at input', () => {
    const usage = {
      inputTokens: 10_000,
      cachedInputTokens: 8_000,
      cacheWriteInputTokens: 1_000,
      outputTokens: 100,
    };
    // 1,000 × 3 + 8,000 × 0.3 + 1,000 × 3.75 + 100 × 15 = 10,650 per million
    expect(costOf(usage, pricing)).toBe(0.01065);
  });

  it('without cache prices, cached tokens cost what input costs', () => {
    const usage = { inputTokens: 1_000, cachedInputTokens: 900, outputTokens: 0 };
    expect(costOf(usage, { input: 2, output: 4 })).toBe(0.002);
  });

  it('never prices more cached tokens than the prompt had', () => {
    const usage = { inputTokens: 100, cachedInputTokens: 5_000, cacheWriteInputTokens: 70 };
    expect(costOf(usage, pricing)).toBe((100 * 0.3) / 1e6);
  });

  it("reads OpenAI's prompt_tokens_details.cached_tokens as part of the prompt", () => {
    const usage = openAiUsage({
      prompt_tokens: 2_000,
      completion_tokens: 10,
      total_tokens: 2_010,
      prompt_tokens_details: { cached_tokens: 1_536 },
    });
    expect(usage).toEqual({
      inputTokens: 2_000,
      outputTokens: 10,
      totalTokens: 2_010,
      cachedInputTokens: 1_536,
    });
    expect(costOf(usage, pricing)).toBe((464 * 3 + 1_536 * 0.3 + 10 * 15) / 1e6);
  });

  it("reads Anthropic's cache reads and writes, which its input_tokens leaves out", () => {
    const wire = {
      input_tokens: 50,
      output_tokens: 20,
      cache_read_input_tokens: 4_000,
      cache_creation_input_tokens: 1_200,
    };
    const usage = anthropicUsage(inputTokensOf(wire), wire.output_tokens, cacheTokensOf(wire));
    expect(usage).toEqual({
      inputTokens: 5_250,
      outputTokens: 20,
      totalTokens: 5_270,
      cachedInputTokens: 4_000,
      cacheWriteInputTokens: 1_200,
    });
    expect(costOf(usage, pricing)).toBe((50 * 3 + 4_000 * 0.3 + 1_200 * 3.75 + 20 * 15) / 1e6);
  });

  it('adds the cached parts of two calls (a continued stream)', () => {
    const both = addUsage(
      { inputTokens: 100, outputTokens: 1, cachedInputTokens: 80 },
      { inputTokens: 200, outputTokens: 2, cachedInputTokens: 150, cacheWriteInputTokens: 10 },
    );
    expect(both).toMatchObject({
      inputTokens: 300,
      cachedInputTokens: 230,
      cacheWriteInputTokens: 10,
    });
  });
});
