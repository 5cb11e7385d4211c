import { describe, expect, it } from '@jest/globals';
import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { AiSdkChatModel } from 'nest-model-router/ai-sdk';
import { collectStream, userMessage } from 'nest-model-router/core';

// what a provider that counts nothing gives the AI SDK: every total undefined
const NO_USAGE: LanguageModelV3Usage = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};
const request = { messages: [userMessage('q'.repeat(40))] }; // 10 tokens
const TEXT = 'a'.repeat(80); // 20 tokens
const ESTIMATED = { inputTokens: 10, outputTokens: 20, totalTokens: 30, estimated: true };

describe('AiSdkChatModel over a model that reports no usage', () => {
  it('estimates a generated answer’s usage, and marks it', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text', text: TEXT }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: NO_USAGE,
        warnings: [],
      }),
    });
    const response = await new AiSdkChatModel(model).chat(request);
    expect(response.tokenUsage).toEqual(ESTIMATED);
  });

  it('estimates a streamed answer’s usage, and marks it', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: convertArrayToReadableStream([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: TEXT },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: NO_USAGE },
        ]),
      }),
    });
    const response = await collectStream(new AiSdkChatModel(model).stream(request));
    expect(response.tokenUsage).toEqual(ESTIMATED);
  });
});
