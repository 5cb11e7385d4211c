import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import type { FakeProvider } from '../../../src/testing/index.js';
import { postJson, startGatewayOnFake, user, type RunningGateway } from './gateway-harness.js';

const KEY = 'sk-fake-parameters-0123456789';

/** Every sampling parameter a client may send, as OpenAI names them. */
const SAMPLING = {
  seed: 42,
  frequency_penalty: 0.5,
  presence_penalty: -0.25,
  logit_bias: { '1734': -100, '50256': 5 },
  logprobs: true,
  top_logprobs: 3,
  top_k: 40,
  user: 'team-member-7',
  reasoning_effort: 'low',
  service_tier: 'flex',
};

describe('request parameters forwarded to providers', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;
  let client: OpenAI;
  const upstreamBody = () => fake.requests.all().at(-1)!.body as Record<string, unknown>;

  beforeAll(async () => {
    ({ fake, gateway } = await startGatewayOnFake(KEY, {
      config: 'test/e2e/gateway/fixtures/request-parameters.yaml',
    }));
    client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('sends an OpenAI-compatible upstream every parameter as it came', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'openai',
      messages: [user('Name a colour.')],
      tools: [{ type: 'function', function: { name: 'paint' } }],
      parallel_tool_calls: false,
      ...SAMPLING,
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(upstreamBody()).toMatchObject({ ...SAMPLING, parallel_tool_calls: false });
  });

  it('sends Anthropic top_k and the user as metadata.user_id, and drops what it cannot take', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'anthropic',
      messages: [user('Name a colour.')],
      tools: [{ type: 'function', function: { name: 'paint' } }],
      parallel_tool_calls: false,
      ...SAMPLING,
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { choices: Array<{ logprobs: unknown }> };
    expect(answer.choices[0]!.logprobs).toBeNull();
    const body = upstreamBody();
    expect(body).toMatchObject({
      top_k: 40,
      metadata: { user_id: 'team-member-7' },
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    for (const dropped of ['seed', 'frequency_penalty', 'logit_bias', 'logprobs', 'user']) {
      expect(body).not.toHaveProperty(dropped);
    }
  });

  it.each([
    ['seed', 1.5],
    ['frequency_penalty', 2.5],
    ['presence_penalty', -3],
    ['logit_bias', { '1': 101 }],
    ['logit_bias', Object.fromEntries(Array.from({ length: 301 }, (_, i) => [String(i), 1]))],
    ['logit_bias', { hello: 1 }],
    ['top_logprobs', 21],
    ['top_k', 0],
    ['user', 'u'.repeat(257)],
    ['reasoning_effort', 'extreme'],
    ['service_tier', 'Not A Tier!'],
  ])(
    'refuses %s out of range with a 400 naming it, before any provider call',
    async (field, value) => {
      const before = fake.requests.all().length;
      const response = await postJson(`${gateway.url}/v1/chat/completions`, {
        model: 'openai',
        messages: [user('Hi')],
        [field]: value,
      });
      expect(response.status).toBe(400);
      const error = ((await response.json()) as { error: { message: string; param?: string } })
        .error;
      expect(`${error.param ?? ''} ${error.message}`).toContain(field);
      expect(fake.requests.all().length).toBe(before);
    },
  );

  it('returns logprobs through the official openai client, plain and streamed', async () => {
    const plain = await client.chat.completions.create({
      model: 'openai',
      messages: [user('Name a colour.')],
      logprobs: true,
      top_logprobs: 2,
    });
    const content = plain.choices[0]!.logprobs!.content!;
    expect(content.map((entry) => entry.token).join('')).toBe(plain.choices[0]!.message.content);
    expect(content[0]!.top_logprobs).toHaveLength(2);

    const stream = client.chat.completions.stream({
      model: 'openai',
      messages: [user('Name a colour.')],
      logprobs: true,
      top_logprobs: 2,
    });
    const streamed = await stream.finalChatCompletion();
    const tokens = streamed.choices[0]!.logprobs!.content!;
    expect(tokens.map((entry) => entry.token).join('')).toBe(streamed.choices[0]!.message.content);
    expect(tokens.every((entry) => entry.top_logprobs.length === 2)).toBe(true);
  });

  it('forwards the Responses API parameters and returns its output_text logprobs', async () => {
    const answer = await client.responses.create({
      model: 'openai',
      input: 'Name a colour.',
      tools: [{ type: 'function', name: 'paint', parameters: null, strict: false }],
      parallel_tool_calls: false,
      top_logprobs: 2,
      user: 'team-member-7',
      reasoning: { effort: 'low' },
      service_tier: 'flex',
    });
    expect(upstreamBody()).toMatchObject({
      logprobs: true,
      top_logprobs: 2,
      user: 'team-member-7',
      parallel_tool_calls: false,
      reasoning_effort: 'low',
      service_tier: 'flex',
    });
    const message = answer.output.find((item) => item.type === 'message')!;
    const text = message.content[0]!;
    if (text.type !== 'output_text') throw new Error(`got ${text.type}`);
    expect(text.logprobs!.map((entry) => entry.token).join('')).toBe(text.text);
    expect(text.logprobs![0]!.top_logprobs).toHaveLength(2);
    expect(answer.reasoning?.effort).toBe('low');
  });

  it.each([
    ['openai', { top_k: 12, user: 'team-member-7' }],
    ['anthropic', { top_k: 12, metadata: { user_id: 'team-member-7' } }],
  ])('forwards /v1/messages top_k and metadata.user_id to the %s router', async (model, sent) => {
    const response = await postJson(`${gateway.url}/v1/messages`, {
      model,
      max_tokens: 64,
      messages: [user('Name a colour.')],
      top_k: 12,
      metadata: { user_id: 'team-member-7' },
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(upstreamBody()).toMatchObject(sent);
  });

  it.each([
    ['/v1/responses', 'top_logprobs', { model: 'openai', input: 'Hi', top_logprobs: 21 }],
    ['/v1/responses', 'effort', { model: 'openai', input: 'Hi', reasoning: { effort: 'max' } }],
    ['/v1/messages', 'top_k', { model: 'openai', max_tokens: 8, messages: [user('Hi')], top_k: 0 }],
    [
      '/v1/messages',
      'user_id',
      {
        model: 'openai',
        max_tokens: 8,
        messages: [user('Hi')],
        metadata: { user_id: 'u'.repeat(257) },
      },
    ],
  ])('refuses on %s a bad %s with a 400 naming it', async (path, field, body) => {
    const before = fake.requests.all().length;
    const response = await postJson(`${gateway.url}${path}`, body);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(field);
    expect(fake.requests.all().length).toBe(before);
  });

  it("takes the library's names on POST /chat, bounded by the library", async () => {
    const sent = { seed: 42, logitBias: { '1734': -100 }, topK: 40, user: 'team-member-7' };
    const ok = await postJson(`${gateway.url}/chat`, {
      router: 'openai',
      messages: [{ role: 'user', content: 'Name a colour.' }],
      parameters: sent,
    });
    expect(ok.status).toBe(200);
    await ok.text();
    expect(upstreamBody()).toMatchObject({
      seed: 42,
      logit_bias: { '1734': -100 },
      top_k: 40,
      user: 'team-member-7',
    });
    const before = fake.requests.all().length;
    const bad = await postJson(`${gateway.url}/chat`, {
      router: 'openai',
      messages: [{ role: 'user', content: 'Hi' }],
      parameters: { presencePenalty: 3 },
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('parameters.presencePenalty');
    expect(fake.requests.all().length).toBe(before);
  });

  it('leaves logprobs null when they were not asked for', async () => {
    const plain = await client.chat.completions.create({
      model: 'openai',
      messages: [user('Name a colour.')],
    });
    expect(plain.choices[0]!.logprobs).toBeNull();
    expect(upstreamBody()).not.toHaveProperty('logprobs');
  });
});
