import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { postJson, startGateway, user, type RunningGateway } from './gateway-harness.js';

const SIMPLE_QUESTION = 'What is the capital of France?';
const COMPLEX_QUESTION = 'Prove that there are infinitely many prime numbers.';

describe('the gateway through the official openai client', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    // no flaky model here: these tests are about the API, failover has its own file
    gateway = await startGateway({ config: demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }) });
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('answers a chat, naming the model that answered, with usage and routing headers', async () => {
    const { data, response } = await gateway.client.chat.completions
      .create({ model: 'auto', messages: [user(SIMPLE_QUESTION)] })
      .withResponse();

    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe('demo-mini');
    expect(response.headers.get('x-model-router-route')).toBe('simple');
    expect(response.headers.get('x-model-router-model')).toBe('demo-mini');
    const text = data.choices[0]!.message.content!;
    expect(text).toMatch(
      /^Model 'demo-mini' on router 'auto', route 'simple' \(route probability [01]\.\d\d\) answering\./,
    );
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage!.completion_tokens).toBe(text.split(/\s+/).length);
    expect(data.usage!.total_tokens).toBe(
      data.usage!.prompt_tokens + data.usage!.completion_tokens,
    );
  });

  it('routes a hard question to the complex route', async () => {
    const { data, response } = await gateway.client.chat.completions
      .create({ model: 'auto', messages: [user(COMPLEX_QUESTION)] })
      .withResponse();

    expect(response.headers.get('x-model-router-route')).toBe('complex');
    expect(data.model).toBe('demo-pro');
    expect(data.choices[0]!.message.content).toContain("route 'complex'");
  });

  it('streams deltas that add up to the same answer as a plain call, with usage', async () => {
    const plain = await gateway.client.chat.completions.create({
      model: 'auto',
      messages: [user(COMPLEX_QUESTION)],
    });
    const { data: stream, response } = await gateway.client.chat.completions
      .create({ model: 'auto', messages: [user(COMPLEX_QUESTION)], stream: true })
      .withResponse();

    let text = '';
    const models = new Set<string>();
    let usage: OpenAI.CompletionUsage | null | undefined;
    let finish: string | null = null;
    let deltas = 0;
    for await (const chunk of stream) {
      models.add(chunk.model);
      const choice = chunk.choices[0];
      if (choice?.delta.content) {
        text += choice.delta.content;
        deltas++;
      }
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }

    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('x-model-router-route')).toBe('complex');
    expect(response.headers.get('x-model-router-model')).toBe('demo-pro');
    expect(deltas).toBeGreaterThan(5);
    expect(text).toBe(plain.choices[0]!.message.content);
    expect([...models]).toEqual(['demo-pro']);
    expect(finish).toBe('stop');
    expect(usage).toEqual(plain.usage);
  });

  it('keeps a tool round on the route that asked for the tool, whatever the router would say', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'search',
          description: 'Searches the web',
          parameters: { type: 'object', properties: { query: { type: 'string' } } },
        },
      },
    ];
    const first = await gateway.client.chat.completions
      .create({ model: 'auto', messages: [user(COMPLEX_QUESTION)], tools })
      .withResponse();
    expect(first.response.headers.get('x-model-router-route')).toBe('complex');
    const call = first.data.choices[0]!.message.tool_calls![0]!;
    expect(first.data.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && call.function.name).toBe('search');

    // the user's text now reads like small talk: the router alone would pick `simple`
    const routerAlone = await gateway.client.chat.completions
      .create({ model: 'auto', messages: [user('Hi there, how are you today?')] })
      .withResponse();
    expect(routerAlone.response.headers.get('x-model-router-route')).toBe('simple');

    const second = await gateway.client.chat.completions
      .create({
        model: 'auto',
        tools,
        messages: [
          user('Hi there, how are you today?'),
          first.data.choices[0]!.message,
          { role: 'tool', tool_call_id: call.id, content: '42 results' },
        ],
      })
      .withResponse();

    expect(second.response.headers.get('x-model-router-route')).toBe('complex');
    expect(second.data.model).toBe('demo-pro');
    expect(second.data.choices[0]!.message.content).toContain('The tool returned: 42 results');
  });

  it('answers a JSON-schema request with JSON of that shape', async () => {
    const completion = await gateway.client.chat.completions.create({
      model: 'auto',
      messages: [user('Give me the capital of France as JSON')],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'capital',
          schema: {
            type: 'object',
            properties: { city: { type: 'string' }, population: { type: 'integer' } },
            required: ['city', 'population'],
          },
        },
      },
    });

    const value = JSON.parse(completion.choices[0]!.message.content!) as Record<string, unknown>;
    expect(Object.keys(value).toSorted()).toEqual(['city', 'population']);
    expect(typeof value.city).toBe('string');
    expect(Number.isInteger(value.population)).toBe(true);
  });

  it('rejects an invalid body with 400 naming the fields', async () => {
    const error = await gateway.client.chat.completions
      .create({
        model: 'auto',
        messages: [{ role: 'robot', content: 'hi' } as never],
        temperature: 7,
      })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('messages.0.role');
    expect(bad.message).toContain('temperature');
    expect(bad.param).toBe('messages.0.role');
  });

  it('rejects malformed JSON with 400 in OpenAI error shape, not 500', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, undefined, {
      raw: '{"model": "auto", "messages": [',
    });

    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/JSON/);
  });

  it('rejects a body that is not a JSON object with 400', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, ['not', 'an', 'object']);

    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('JSON object');
  });

  it('answers an unknown model with 404 model_not_found listing what exists', async () => {
    const error = await gateway.client.chat.completions
      .create({ model: 'gpt-17', messages: [user('hi')] })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const notFound = error as InstanceType<typeof OpenAI.NotFoundError>;
    expect(notFound.code).toBe('model_not_found');
    expect(notFound.message).toContain("'gpt-17'");
    expect(notFound.message).toContain('auto');
  });

  it('lists routers, models and embedding models in the OpenAI list shape', async () => {
    const listed: { id: string; kind: unknown }[] = [];
    for await (const model of gateway.client.models.list()) {
      listed.push({ id: model.id, kind: (model as unknown as { kind: unknown }).kind });
    }

    expect(listed).toEqual([
      { id: 'auto', kind: 'router' },
      { id: 'demo-mini', kind: 'model' },
      { id: 'demo-mini-backup', kind: 'model' },
      { id: 'demo-pro', kind: 'model' },
      { id: 'demo-pro-backup', kind: 'model' },
      { id: 'demo-embedding', kind: 'embedding' },
    ]);
  });

  it('retrieves one model, and answers 404 for an unknown one', async () => {
    const model = await gateway.client.models.retrieve('demo-pro');
    const missing = await gateway.client.models.retrieve('gpt-17').catch((e: unknown) => e);

    expect(model).toMatchObject({ id: 'demo-pro', object: 'model', kind: 'model' });
    expect(await gateway.client.models.retrieve('demo-embedding')).toMatchObject({
      id: 'demo-embedding',
      object: 'model',
      kind: 'embedding',
    });
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('serves a registered model directly by its name', async () => {
    const { data, response } = await gateway.client.chat.completions
      .create({ model: 'demo-pro-backup', messages: [user(SIMPLE_QUESTION)] })
      .withResponse();

    expect(data.model).toBe('demo-pro-backup');
    expect(response.headers.get('x-model-router-model')).toBe('demo-pro-backup');
    expect(response.headers.get('x-model-router-route')).toBeNull();
    expect(data.choices[0]!.message.content).toMatch(/^Model 'demo-pro-backup' answering\./);
  });
});
