import { describe, expect, it } from '@jest/globals';
import { aiMessage, userMessage } from '../../../src/core/chat/messages.js';
import { toAnthropicBody } from '../../../src/providers/anthropic/anthropic-request-mapper.js';
import { toOpenAiBody } from '../../../src/providers/openai/openai-request-mapper.js';

const openAi = {
  provider: 'openai',
  model: 'm',
  maxTokensParameter: 'max_tokens' as const,
  strictJsonSchema: false,
  logprobs: false,
};
const anthropic = { provider: 'anthropic', model: 'c', maxTokens: 1024, structuredOutputs: false };

describe('toOpenAiBody', () => {
  it('sends audio as input_audio and pdf as a file', () => {
    const body = toOpenAiBody(
      {
        messages: [
          userMessage([
            { type: 'audio', data: 'UklGR', mimeType: 'audio/mpeg' },
            { type: 'pdf', data: 'JVBERi0' },
          ]),
        ],
      },
      openAi,
    );
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'input_audio', input_audio: { data: 'UklGR', format: 'mp3' } },
        {
          type: 'file',
          file: { file_data: 'data:application/pdf;base64,JVBERi0', filename: 'document.pdf' },
        },
      ],
    });
  });

  it('refuses an audio URL, naming the part', () => {
    expect(() =>
      toOpenAiBody(
        { messages: [userMessage([{ type: 'audio', url: 'https://x/a.wav' }])] },
        openAi,
      ),
    ).toThrow('messages[0].content[0]: an audio part needs base64 `data`');
  });
});

describe('toAnthropicBody', () => {
  it('refuses tool call arguments that are not JSON, naming them', () => {
    expect(() =>
      toAnthropicBody(
        {
          messages: [
            userMessage('hi'),
            aiMessage({ toolCalls: [{ id: 't1', name: 'f', arguments: '{oops' }] }),
          ],
        },
        anthropic,
      ),
    ).toThrow('messages[1].toolCalls[0].arguments is not valid JSON');
  });

  it('refuses schema-less JSON mode instead of silently ignoring it', () => {
    expect(() =>
      toAnthropicBody(
        { messages: [userMessage('hi')], parameters: { responseFormat: { type: 'json' } } },
        anthropic,
      ),
    ).toThrow('needs a jsonSchema');
  });

  it('maps tool choice and defaults max_tokens', () => {
    const body = toAnthropicBody(
      { messages: [userMessage('hi')], parameters: { tools: [{ name: 'f' }], toolChoice: 'none' } },
      anthropic,
    );
    expect(body).toMatchObject({
      max_tokens: 1024,
      tool_choice: { type: 'none' },
      tools: [{ name: 'f', input_schema: { type: 'object', properties: {} } }],
    });
  });
});

describe('sampling parameters per provider', () => {
  const tools = [{ name: 'f' }];

  it("lets the request's logprobs win over the model's configured ones", () => {
    const ask = toOpenAiBody(
      { messages: [userMessage('hi')], parameters: { topLogprobs: 4 } },
      openAi,
    );
    expect(ask).toMatchObject({ logprobs: true, top_logprobs: 4 });
    const refuse = toOpenAiBody(
      { messages: [userMessage('hi')], parameters: { logprobs: false } },
      { ...openAi, logprobs: true, topLogprobs: 2 },
    );
    expect(refuse).not.toHaveProperty('logprobs');
  });

  it('sends parallel_tool_calls to OpenAI only with tools, which it requires', () => {
    const none = toOpenAiBody(
      { messages: [userMessage('hi')], parameters: { parallelToolCalls: false } },
      openAi,
    );
    expect(none).not.toHaveProperty('parallel_tool_calls');
    const some = toOpenAiBody(
      { messages: [userMessage('hi')], parameters: { parallelToolCalls: false, tools } },
      openAi,
    );
    expect(some.parallel_tool_calls).toBe(false);
  });

  it('keeps a forced tool when Anthropic is told not to call tools in parallel', () => {
    const body = toAnthropicBody(
      {
        messages: [userMessage('hi')],
        parameters: { tools, toolChoice: { name: 'f' }, parallelToolCalls: false, seed: 3 },
      },
      anthropic,
    );
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'f', disable_parallel_tool_use: true });
    expect(body).not.toHaveProperty('seed');
  });
});
