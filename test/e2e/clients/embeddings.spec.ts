import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { postJson, startGateway } from '../gateway/gateway-harness.js';
import { FAKE_KEY, startClientGateway, type ClientGateway } from './client-gateway.js';

const dot = (a: readonly number[], b: readonly number[]) =>
  a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('POST /v1/embeddings', () => {
  let env: ClientGateway;

  beforeAll(async () => {
    env = await startClientGateway();
  });

  afterAll(async () => {
    await env.close();
  });

  it('the openai SDK embeds with demo-embedding (offline): unit vectors, similar texts closer', async () => {
    const { data, response } = await env.gateway.client.embeddings
      .create({
        model: 'demo-embedding',
        input: ['the cat sat on the mat', 'a kitten rests on a rug', 'stock markets fell sharply'],
      })
      .withResponse();
    expect(response.headers.get('x-model-router-model')).toBe('demo-embedding');
    expect(data.model).toBe('demo-embedding');
    expect(data.data.map((item) => item.index)).toEqual([0, 1, 2]);
    const [cat, kitten, markets] = data.data.map((item) => item.embedding);
    expect(cat).toHaveLength(100);
    expect(dot(cat!, cat!)).toBeCloseTo(1, 5);
    expect(dot(cat!, kitten!)).toBeGreaterThan(dot(cat!, markets!));
    expect(data.usage.prompt_tokens).toBe(6 + 6 + 4);
  });

  it('answers floats when asked, and the same vector for the same text', async () => {
    const response = await postJson(`${env.gateway.url}/v1/embeddings`, {
      model: 'demo-embedding',
      input: 'the cat sat on the mat',
      encoding_format: 'float',
    });
    const body = (await response.json()) as { data: { embedding: number[] }[] };
    const sdk = await env.gateway.client.embeddings.create({
      model: 'demo-embedding',
      input: 'the cat sat on the mat',
    });
    expect(body.data[0]!.embedding[0]).toBeCloseTo(sdk.data[0]!.embedding[0]!, 6);
  });

  it('serves a provider’s model and fails over along a models list', async () => {
    const { data: direct, response: directResponse } = await env.gateway.client.embeddings
      .create({
        model: 'fake/text-embedding-3-small',
        input: 'hello',
      })
      .withResponse();
    expect(direct.data[0]!.embedding).toHaveLength(64);
    // the body gives the provider's id, the header the model as the client addressed it
    expect(direct.model).toBe('text-embedding-3-small');
    expect(directResponse.headers.get('x-model-router-model')).toBe('fake/text-embedding-3-small');

    const response = await postJson(`${env.gateway.url}/v1/embeddings`, {
      model: 'fake/emb-fault-503',
      models: ['demo-embedding'],
      input: 'hello',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-model-router-model')).toBe('demo-embedding');
  });

  it('answers every failure through the error table, in OpenAI’s error shape', async () => {
    const down = await postJson(`${env.gateway.url}/v1/embeddings`, {
      model: 'fake/emb-fault-503',
      input: 'hello',
    });
    // an upstream outage is the gateway's bad gateway, as on chat; the key never shows
    expect(down.status).toBe(502);
    expect(await down.text()).not.toContain(FAKE_KEY);
    const unknown = await postJson(`${env.gateway.url}/v1/embeddings`, {
      model: 'no-such-embedder',
      input: 'hello',
    });
    expect(unknown.status).toBe(404);
    const body = (await unknown.json()) as { error: { message: string; code: string } };
    expect(body.error.code).toBe('model_not_found');
    expect(body.error.message).toContain('demo-embedding');
  });

  it.each([
    ['no input', { model: 'demo-embedding' }, 'input'],
    ['an empty input list', { model: 'demo-embedding', input: [] }, 'input'],
    ['token ids', { model: 'demo-embedding', input: [[1, 2, 3]] }, 'token-id arrays'],
    [
      // what LangChain's Python OpenAIEmbeddings sends by default: the answer says how to fix it
      "LangChain's token ids",
      { model: 'demo-embedding', input: [[15339, 1917], [6864]], encoding_format: 'base64' },
      'check_embedding_ctx_length=False',
    ],
    ['a huge text', { model: 'demo-embedding', input: 'x'.repeat(100_001) }, 'at most 100000'],
    [
      'too many texts',
      { model: 'demo-embedding', input: Array.from({ length: 2049 }, () => 'a') },
      '1 to 2048',
    ],
    [
      'an unknown encoding',
      { model: 'demo-embedding', input: 'a', encoding_format: 'int8' },
      'encoding_format',
    ],
    ['dimensions 0', { model: 'demo-embedding', input: 'a', dimensions: 0 }, 'dimensions'],
    [
      'dimensions it cannot give',
      { model: 'demo-embedding', input: 'a', dimensions: 64 },
      'cannot shorten',
    ],
    ['no model', { input: 'a' }, 'model'],
  ])('refuses %s with a 400 naming the problem', async (_, body, problem) => {
    const response = await postJson(`${env.gateway.url}/v1/embeddings`, body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { message: string } };
    expect(answer.error.message).toContain(problem);
  });
});

describe('POST /v1/embeddings with the zero-configuration YAML', () => {
  it('answers demo-embedding from config/model-router.yaml', async () => {
    const gateway = await startGateway({ config: 'config/model-router.yaml', env: {} });
    try {
      const answer = await gateway.client.embeddings.create({
        model: 'demo-embedding',
        input: 'hello world',
      });
      expect(answer.data[0]!.embedding).toHaveLength(100);
      // the YAML's ollama provider speaks the OpenAI wire: its embeddings are addressable too
      const unreachable = await postJson(`${gateway.url}/v1/embeddings`, {
        model: 'openai/text-embedding-3-small',
        input: 'x',
      });
      expect(unreachable.status).toBe(404); // no OPENAI_API_KEY here: says why
      expect(await unreachable.text()).toContain('has no apiKey');
    } finally {
      await gateway.close();
    }
  });
});
