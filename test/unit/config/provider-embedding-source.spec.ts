import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { providerEmbeddingSource } from '../../../src/config/provider-embedding-source.js';
import type { ProviderConfig } from '../../../src/config/model-router-config.js';
import { FakeProvider } from '../../../src/testing/fake-provider/fake-provider.js';

let fake: FakeProvider;

beforeAll(async () => {
  fake = await FakeProvider.start();
});

afterAll(async () => {
  await fake.close();
});

const provider = (fields: Record<string, unknown>) => fields as unknown as ProviderConfig;

describe('providerEmbeddingSource: a YAML provider as embedding models', () => {
  it('embeds on an OpenAI-compatible provider, at its base URL with its key', async () => {
    const source = providerEmbeddingSource(
      'local',
      provider({ type: 'openai', baseURL: fake.openaiBaseURL, apiKey: 'sk-local' }),
    );
    expect(typeof source).toBe('function');
    const model = (source as (modelId: string) => { embed(texts: string[]): Promise<unknown> })(
      'emb-1',
    );
    const result = (await model.embed(['hello', 'world'])) as { vectors: number[][] };
    expect(result.vectors).toHaveLength(2);
    expect(fake.requests.last()).toMatchObject({ endpoint: 'embeddings', model: 'emb-1' });
    expect(fake.requests.last()?.headers.authorization).toBe('Bearer sk-local');
  });

  it('is disabled with the reason its chat models give when its key is blank', () => {
    expect(providerEmbeddingSource('openai', provider({ type: 'openai', apiKey: '  ' }))).toEqual({
      disabled: expect.stringContaining("provider 'openai' has no apiKey"),
    });
  });

  it('has none for a provider whose wire has no embeddings', () => {
    expect(providerEmbeddingSource('claude', provider({ type: 'anthropic', apiKey: 'k' }))).toBe(
      undefined,
    );
  });
});
