import { describe, expect, it } from '@jest/globals';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { AnthropicChatModel } from '../../../src/providers/anthropic/anthropic-chat-model.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';

const build = (options: Record<string, unknown>) => () =>
  new OpenAiCompatibleChatModel({ model: 'm', apiKey: 'sk-test-0000', ...options } as never);
const buildClaude = (options: Record<string, unknown>) => () =>
  new AnthropicChatModel({ model: 'c', apiKey: 'sk-test-0000', ...options } as never);

describe('provider options are checked at construction, naming the field', () => {
  it.each([
    [{ model: '' }, 'options.model'],
    [{ baseURL: 'not a url' }, 'options.baseURL'],
    [{ timeout: -1 }, 'options.timeout'],
    [{ maxRetries: 1.5 }, 'options.maxRetries'],
    [{ topLogprobs: 21 }, 'options.topLogprobs'],
    [{ malformedChunks: 'ignore' }, 'options.malformedChunks'],
    [{ maxTokensParameter: 'max' }, 'options.maxTokensParameter'],
    [{ headers: { 'x-a': 1 } }, 'options.headers.x-a'],
  ])('OpenAiCompatibleChatModel %j → %s', (options, field) => {
    expect(build(options)).toThrow(InvalidConfigurationException);
    expect(build(options)).toThrow(field);
  });

  it.each([
    [{ model: 42 }, 'options.model'],
    [{ maxTokens: 0 }, 'options.maxTokens'],
    [{ malformedChunks: 'drop' }, 'options.malformedChunks'],
  ])('AnthropicChatModel %j → %s', (options, field) => {
    expect(buildClaude(options)).toThrow(field);
  });

  it('a missing key names the option and the environment variable, never a value', () => {
    const saved = { openai: process.env.OPENAI_API_KEY, anthropic: process.env.ANTHROPIC_API_KEY };
    delete process.env.OPENAI_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      expect(() => new OpenAiCompatibleChatModel({ model: 'm' })).toThrow(
        /no apiKey given and OPENAI_API_KEY is not set/,
      );
      expect(() => new AnthropicChatModel({ model: 'c' })).toThrow(
        /no apiKey given and ANTHROPIC_API_KEY is not set/,
      );
    } finally {
      if (saved.openai !== undefined) process.env.OPENAI_API_KEY = saved.openai;
      if (saved.anthropic !== undefined) process.env.ANTHROPIC_API_KEY = saved.anthropic;
    }
  });

  it('never echoes a long string value (it might be a key pasted in the wrong field)', () => {
    const secretish = 'sk-0123456789012345678901234567890123456789';
    expect(build({ baseURL: secretish })).toThrow(/a string of \d+ characters/);
    expect(build({ baseURL: secretish })).not.toThrow(secretish);
  });

  it('refuses a baseURL without its scheme, saying what one looks like', () => {
    // `localhost:` parses as a URL scheme: the SDK's pool then failed with a bare "Invalid URL"
    for (const make of [build, buildClaude]) {
      expect(make({ baseURL: 'localhost:11434/v1' })).toThrow(
        "options.baseURL must be an absolute URL such as http://localhost:11434/v1 (got 'localhost:11434/v1')",
      );
    }
    expect(build({ baseURL: 'https://api.example.com/v1' })).not.toThrow();
  });

  it('refuses a baseURL with credentials, without echoing them (issue 12)', () => {
    for (const make of [build, buildClaude]) {
      const attempt = make({ baseURL: 'http://user:pw@host/v1' });
      expect(attempt).toThrow(/options\.baseURL must not include credentials/);
      expect(attempt).not.toThrow(/:pw@/);
    }
  });

  it('names the provider, not [REDACTED], when a local server gets no key (ollama)', async () => {
    const model = new OpenAiCompatibleChatModel({
      model: 'llama3.2',
      providerName: 'ollama',
      baseURL: 'http://127.0.0.1:9/v1',
    });
    const failure = (await model
      .chat({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(/^ollama model 'llama3.2' failed: /);
    expect(failure.message).not.toContain('[REDACTED]');
  });
});
