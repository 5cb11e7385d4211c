import { describe, expect, it } from '@jest/globals';
import { toAnthropicUsage } from '../../../apps/gateway/src/anthropic/to-message.js';
import { toWireUsage } from '../../../apps/gateway/src/openai/to-chat-completion.js';
import { toResponsesUsage } from '../../../apps/gateway/src/responses/to-response.js';

const usage = {
  inputTokens: 5_000,
  outputTokens: 20,
  totalTokens: 5_020,
  cachedInputTokens: 4_000,
  cacheWriteInputTokens: 900,
};

/** Issue 28: the cache's part of the prompt goes back to clients in each wire format. */
describe('cached prompt tokens on every surface', () => {
  it('chat completions: prompt_tokens_details.cached_tokens, only when there are some', () => {
    expect(toWireUsage(usage)).toMatchObject({
      prompt_tokens: 5_000,
      prompt_tokens_details: { cached_tokens: 4_000 },
    });
    expect(toWireUsage({ inputTokens: 5, outputTokens: 1 })).not.toHaveProperty(
      'prompt_tokens_details',
    );
  });

  it("Anthropic's messages: input_tokens without the cache's reads and writes", () => {
    expect(toAnthropicUsage(usage)).toEqual({
      input_tokens: 100,
      output_tokens: 20,
      cache_creation_input_tokens: 900,
      cache_read_input_tokens: 4_000,
    });
  });

  it('responses: input_tokens_details.cached_tokens', () => {
    expect(toResponsesUsage(usage).input_tokens_details).toEqual({ cached_tokens: 4_000 });
  });
});
