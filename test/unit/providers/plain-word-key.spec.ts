import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { defaultModelRouterFactories } from '../../../src/config/default-model-router-factories.js';
import { InvalidModelRouterConfigException } from '../../../src/config/invalid-model-router-config.exception.js';
import { parseModelRouterConfig } from '../../../src/config/load-model-router-config.js';
import { providerModelSource } from '../../../src/config/provider-model-source.js';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { buildModelRouterOptions } from '../../../src/nest/config/build-model-router-options.js';
import { AnthropicChatModel } from '../../../src/providers/anthropic/anthropic-chat-model.js';
import { openAiCompatibleEmbeddings } from '../../../src/providers/embeddings/openai-compatible-embed.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';

/** Keys are redacted from messages as whole words: a key that is a word would erase that word. */
const local = { model: 'llama3.2', baseURL: 'http://127.0.0.1:9/v1' };
const FIX = /leave apiKey out; otherwise give the real key/;

function refusal(build: () => unknown): string {
  let caught: unknown;
  try {
    build();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(InvalidConfigurationException);
  return (caught as Error).message;
}

describe('an API key that is a provider’s name is refused at start', () => {
  it('refuses a well-known provider’s name, naming the field and the fix', () => {
    for (const key of ['ollama', 'OpenAI', 'vllm']) {
      const message = refusal(() => new OpenAiCompatibleChatModel({ ...local, apiKey: key }));
      expect(message).toMatch(
        /^OpenAiCompatibleChatModel 'llama3.2': options\.apiKey is the provider's name/,
      );
      expect(message).toMatch(FIX);
    }
    expect(refusal(() => new AnthropicChatModel({ model: 'c', apiKey: 'anthropic' }))).toMatch(
      /^AnthropicChatModel 'c': options\.apiKey is the provider's name 'anthropic'/,
    );
  });

  it('refuses the provider’s own name, whatever its shape', () => {
    const message = refusal(
      () => new OpenAiCompatibleChatModel({ ...local, providerName: 'lab-box', apiKey: 'Lab-Box' }),
    );
    expect(message).toContain("options.apiKey is the provider's name 'lab-box'");
    expect(message).toMatch(FIX);
  });

  it('accepts keys that are not words, and no key at all for a local server', () => {
    // short placeholders are keys like any other: accepted, and redacted from messages
    for (const apiKey of [
      'sk-proj-0123456789abcdef',
      'not-needed',
      'ollama-local-1',
      'EMPTY',
      'k',
    ]) {
      expect(() => new OpenAiCompatibleChatModel({ ...local, apiKey })).not.toThrow();
    }
    expect(() => new OpenAiCompatibleChatModel(local)).not.toThrow();
  });

  it('refuses it in a YAML provider, whose models are only built on first use', () => {
    const build = () =>
      providerModelSource(
        'ollama',
        { type: 'openai', baseURL: local.baseURL, apiKey: 'ollama' },
        defaultModelRouterFactories(),
      );
    expect(refusal(build)).toMatch(/^providers\.ollama: apiKey is the provider's name 'ollama'/);
    // left out, the provider serves (a placeholder is sent); blank, it is disabled as before
    const open = providerModelSource(
      'ollama',
      { type: 'openai', baseURL: local.baseURL },
      defaultModelRouterFactories(),
    );
    expect(typeof open).toBe('function');
  });

  it('refuses it in a YAML model that inherits its provider, naming the model', async () => {
    const config = parseModelRouterConfig(
      [
        'providers:',
        `  lab-box: { type: openai, baseURL: '${local.baseURL}', apiKey: lab-box }`,
        'models:',
        '  local: { provider: lab-box, model: llama3.2 }',
        'routers:',
        '  main: { models: [local] }',
      ].join('\n'),
      { env: {} },
    );
    const error = await buildModelRouterOptions(config, {
      factories: defaultModelRouterFactories(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidModelRouterConfigException);
    expect((error as InvalidModelRouterConfigException).problems).toEqual([
      expect.stringMatching(/^models\.local: apiKey is the provider's name 'lab-box'/),
    ]);
  });

  it('refuses it for an embeddings endpoint', () => {
    expect(
      refusal(() =>
        openAiCompatibleEmbeddings({ baseURL: local.baseURL, model: 'nomic', apiKey: 'ollama' }),
      ),
    ).toMatch(/^an embeddings endpoint's apiKey is the provider's name 'ollama'/);
  });
});
