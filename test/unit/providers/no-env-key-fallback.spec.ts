import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AnthropicChatModel } from '../../../src/providers/anthropic/anthropic-chat-model.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { NO_KEY_PLACEHOLDER } from '../../../src/providers/shared/sdk-client-options.js';
import { useFakeProvider } from '../../support/fake-provider.js';

const ENV_KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'] as const;
const user = { role: 'user' as const, content: 'hi' };
const key = (model: OpenAiCompatibleChatModel) =>
  (model as unknown as { client: { apiKey: string } }).client.apiKey;

describe('a model configured without an apiKey', () => {
  const fake = useFakeProvider();
  const saved: Partial<Record<(typeof ENV_KEYS)[number], string>> = {};

  beforeEach(() => {
    for (const name of ENV_KEYS) {
      saved[name] = process.env[name];
      process.env[name] = `sk-env-${name.toLowerCase()}-must-not-leave`;
    }
  });

  afterEach(() => {
    for (const name of ENV_KEYS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("never sends OPENAI_API_KEY to another endpoint (the README's Ollama example)", async () => {
    const local = new OpenAiCompatibleChatModel({
      baseURL: fake.provider.openaiBaseURL,
      model: 'llama3.2',
    });
    await local.chat({ messages: [user] });
    const [headers] = fake.provider.requests.forModel('llama3.2').headers;
    expect(headers?.authorization).toBe(`Bearer ${NO_KEY_PLACEHOLDER}`);
    expect(JSON.stringify(fake.provider.requests.all())).not.toContain('must-not-leave');
  });

  it('never sends ANTHROPIC_API_KEY to another endpoint', async () => {
    const proxy = new AnthropicChatModel({ baseURL: fake.provider.anthropicBaseURL, model: 'c' });
    await proxy.chat({ messages: [user] });
    const [headers = {}] = fake.provider.requests.forModel('c').headers;
    // the SDK sends it as x-api-key or as a bearer token, depending on its version
    expect([headers['x-api-key'], headers.authorization]).toContainEqual(
      expect.stringContaining(NO_KEY_PLACEHOLDER),
    );
    expect(JSON.stringify(fake.provider.requests.all())).not.toContain('must-not-leave');
  });

  it("still takes the variable for the provider's own API (no baseURL, or its host)", () => {
    expect(key(new OpenAiCompatibleChatModel({ model: 'gpt-4o-mini' }))).toBe(
      process.env.OPENAI_API_KEY,
    );
    expect(
      key(new OpenAiCompatibleChatModel({ model: 'm', baseURL: 'https://api.openai.com/v1' })),
    ).toBe(process.env.OPENAI_API_KEY);
  });
});
