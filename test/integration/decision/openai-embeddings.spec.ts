import { describe, expect, it } from '@jest/globals';
import type { ChoiceQuestion } from '../../../src/core/decision/decision-model.js';
import { EmbeddingDecisionModel } from '../../../src/providers/embeddings/embedding-decision-model.js';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { openAiEmbeddings } from '../../../src/providers/embeddings/openai-embeddings.js';
import { untilRequested, useFakeProvider } from '../../support/fake-provider.js';

const API_KEY = 'sk-sdk-embeddings-secret-77';

const question: ChoiceQuestion = {
  text: 'q',
  options: [
    { name: 'billing', description: 'invoices refunds payments', examples: ['refund my invoice'] },
    {
      name: 'code',
      description: 'programming debugging python',
      examples: ['debug my python script'],
    },
  ],
};

describe('openAiEmbeddings (openai SDK) feeding EmbeddingDecisionModel, fake provider on 127.0.0.1', () => {
  const fake = useFakeProvider({ apiKey: API_KEY, embeddingDimensions: 32 });

  const embedder = (model: string, apiKey = API_KEY) =>
    openAiEmbeddings({ baseURL: fake.provider.openaiBaseURL, apiKey, model });

  it('embeds through the SDK and routes', async () => {
    const embed = embedder('sdk-embed');
    const vectors = await embed(['one text', 'another text']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(32);

    const model = new EmbeddingDecisionModel({ embed });
    expect((await model.decide({ input: 'please debug this python', question })).value).toBe(
      'code',
    );
    expect((await model.decide({ input: 'a refund for my invoice', question })).value).toBe(
      'billing',
    );
  });

  it('a wrong key is a ProviderException without the key', async () => {
    const wrongKey = 'sk-this-one-is-wrong-and-secret';
    const embed = embedder('sdk-embed', wrongKey);
    const error = (await embed(['x']).catch((e: unknown) => e)) as ProviderException;
    expect(error).toBeInstanceOf(ProviderException);
    expect(error.status).toBe(401);
    expect(error.message).not.toContain(wrongKey);
  });

  it('the caller’s abort rejects with its reason', async () => {
    const embed = embedder('sdk-embed-fault-hang');
    const controller = new AbortController();
    const pending = new EmbeddingDecisionModel({ embed }).decide({
      input: 'refund',
      question,
      signal: controller.signal,
    });
    await untilRequested(fake.provider, 'sdk-embed-fault-hang');
    const reason = new Error('stop waiting');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('needs a model name', () => {
    expect(() => openAiEmbeddings({ model: '', apiKey: 'k' })).toThrow(
      InvalidConfigurationException,
    );
    expect(() => openAiEmbeddings({ model: '', apiKey: 'k' })).toThrow('(model)');
  });
});
