import { describe, expect, it } from '@jest/globals';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import { promptPrefixKey } from '../../../src/core/chat/prompt-prefix.js';
import { toOpenAiBody } from '../../../src/providers/openai/openai-request-mapper.js';
import { toAnthropicBody } from '../../../src/providers/anthropic/anthropic-request-mapper.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';

const LONG = 'Answer as the shop’s assistant. '.repeat(200);
const request: ChatRequest = {
  messages: [
    { role: 'system', text: LONG },
    { role: 'user', content: 'hi' },
  ],
};
const openAi = { provider: 'openai', model: 'gpt-4o', maxTokensParameter: 'max_tokens' as const };
const settings = { ...openAi, strictJsonSchema: false, logprobs: false };

describe('provider prompt caches', () => {
  it('OpenAI-compatible calls carry the derived prompt_cache_key when enabled', () => {
    expect(toOpenAiBody(request, { ...settings, promptCacheKey: true }).prompt_cache_key).toBe(
      promptPrefixKey(request),
    );
    expect(toOpenAiBody(request, settings).prompt_cache_key).toBeUndefined();
  });

  it("passes the caller's own key through, enabled or not", () => {
    const own = { ...request, parameters: { promptCacheKey: 'team-a:faq' } };
    expect(toOpenAiBody(own, settings).prompt_cache_key).toBe('team-a:faq');
  });

  it("is on by default for OpenAI's own API only", () => {
    const body = (model: OpenAiCompatibleChatModel) =>
      (
        model as unknown as { buildBody(r: ChatRequest, m: string): { prompt_cache_key?: string } }
      ).buildBody(request, 'gpt-4o');
    const official = new OpenAiCompatibleChatModel({
      model: 'gpt-4o',
      apiKey: 'sk-test-0123456789',
    });
    const local = new OpenAiCompatibleChatModel({
      model: 'llama',
      baseURL: 'http://127.0.0.1:1/v1',
    });
    const optedIn = new OpenAiCompatibleChatModel({
      model: 'llama',
      baseURL: 'http://127.0.0.1:1/v1',
      promptCacheKey: true,
    });
    expect(body(official).prompt_cache_key).toBe(promptPrefixKey(request));
    expect(body(local).prompt_cache_key).toBeUndefined();
    expect(body(optedIn).prompt_cache_key).toBe(promptPrefixKey(request));
  });

  it('Anthropic marks a long system prompt cacheable only when asked', () => {
    const base = {
      provider: 'anthropic',
      model: 'claude',
      maxTokens: 100,
      structuredOutputs: false,
    };
    expect(toAnthropicBody(request, base).system).toBe(LONG);
    expect(toAnthropicBody(request, { ...base, cacheSystemFromChars: 4_096 }).system).toEqual([
      { type: 'text', text: LONG, cache_control: { type: 'ephemeral' } },
    ]);
    const short = {
      messages: [{ role: 'system' as const, text: 'Be brief.' }, ...request.messages.slice(1)],
    };
    expect(toAnthropicBody(short, { ...base, cacheSystemFromChars: 4_096 }).system).toBe(
      'Be brief.',
    );
  });
});
