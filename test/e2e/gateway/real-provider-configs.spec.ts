import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createGatewayApp } from '../../../apps/gateway/src/create-gateway-app.js';
import { InvalidModelRouterConfigException } from '../../../src/config/invalid-model-router-config.exception.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { startGateway, user } from './gateway-harness.js';

const KEY = 'sk-real-config-test-key';

describe('the documented real-provider configurations, against the fake provider', () => {
  let fake: FakeProvider;

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEY });
  });

  afterAll(async () => {
    await fake.close();
  });

  it('config/model-router.openai.yaml routes to the OpenAI-compatible server of OPENAI_BASE_URL', async () => {
    const gateway = await startGateway({
      config: 'config/model-router.openai.yaml',
      env: {
        OPENAI_BASE_URL: fake.openaiBaseURL,
        OPENAI_API_KEY: KEY,
        OPENAI_SIMPLE_MODEL: 'llama3.2',
      },
    });
    try {
      const simple = await gateway.client.chat.completions
        .create({ model: 'auto', messages: [user('What is the capital of France?')] })
        .withResponse();
      const complex = await gateway.client.chat.completions.create({
        model: 'auto',
        messages: [user('Prove that there are infinitely many prime numbers.')],
      });
      const direct = await gateway.client.chat.completions.create({
        model: 'openai/o3-mini',
        messages: [user('hi')],
      });

      expect(simple.response.headers.get('x-model-router-route')).toBe('simple');
      expect(simple.data.model).toBe('small');
      expect(simple.data.choices[0]!.message.content).toContain('(model llama3.2)');
      expect(complex.model).toBe('large');
      expect(complex.choices[0]!.message.content).toContain('(model gpt-4o)');
      expect(direct.choices[0]!.message.content).toContain('(model o3-mini)');
    } finally {
      await gateway.close();
    }
  });

  it('config/model-router.anthropic.yaml routes to Claude through the Anthropic API', async () => {
    const gateway = await startGateway({
      config: 'config/model-router.anthropic.yaml',
      env: { ANTHROPIC_BASE_URL: fake.anthropicBaseURL, ANTHROPIC_API_KEY: KEY },
    });
    try {
      const stream = await gateway.client.chat.completions.create({
        model: 'auto',
        messages: [user('Prove that there are infinitely many prime numbers.')],
        stream: true,
      });
      let text = '';
      const models = new Set<string>();
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        models.add(chunk.model);
      }

      expect([...models]).toEqual(['strong']);
      expect(text).toContain('(model claude-sonnet-4-6)');
      expect(fake.requests.last('claude-sonnet-4-6')?.endpoint).toBe('messages');
    } finally {
      await gateway.close();
    }
  });

  it('refuses to start without the key, naming the variable and where it is used', async () => {
    const error = await createGatewayApp({
      config: 'config/model-router.openai.yaml',
      env: {},
      logger: false,
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InvalidModelRouterConfigException);
    expect((error as Error).message).toContain('providers.openai.apiKey');
    expect((error as Error).message).toContain('OPENAI_API_KEY is not set');
  });
});
