import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { postJson } from '../gateway/gateway-harness.js';
import { startClientGateway, type ClientGateway } from './client-gateway.js';

const QUESTION = 'What is the capital of France?';
const LOOKUP = {
  type: 'function' as const,
  name: 'lookup',
  description: 'Looks a term up',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  strict: false,
};

describe('POST /v1/responses through the openai SDK', () => {
  let env: ClientGateway;

  beforeAll(async () => {
    env = await startClientGateway();
  });

  afterAll(async () => {
    await env.close();
  });

  it('responses.create answers with output_text, usage, echoed fields and routing headers', async () => {
    const { data, response } = await env.gateway.client.responses
      .create({ model: 'auto', input: QUESTION, instructions: 'Be brief.', metadata: { a: 'b' } })
      .withResponse();
    expect(response.headers.get('x-model-router-route')).toBe('simple');
    expect(data.object).toBe('response');
    expect(data.id).toMatch(/^resp_/);
    expect(data.status).toBe('completed');
    expect(data.model).toBe('demo-mini');
    expect(data.output_text).toMatch(/^Model 'demo-mini' on router 'auto', route 'simple'/);
    expect(data.output[0]).toMatchObject({ type: 'message', role: 'assistant' });
    expect(data.instructions).toBe('Be brief.');
    expect(data.metadata).toEqual({ a: 'b' });
    expect(data.usage!.output_tokens).toBe(data.output_text.split(/\s+/).length);
    expect(data.usage!.total_tokens).toBe(data.usage!.input_tokens + data.usage!.output_tokens);
  });

  it('streams typed events that add up to the plain answer, ending in response.completed', async () => {
    const plain = await env.gateway.client.responses.create({ model: 'auto', input: QUESTION });
    const stream = await env.gateway.client.responses.create({
      model: 'auto',
      input: QUESTION,
      stream: true,
    });
    const types: string[] = [];
    const sequence: number[] = [];
    let text = '';
    let completed: typeof plain | undefined;
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(sequence).toEqual(sequence.map((_, i) => i));
    expect(text).toBe(plain.output_text);
    expect(completed!.usage).toEqual(plain.usage);
  });

  it('a function call, then its output, back to the same route', async () => {
    const first = await env.gateway.client.responses.create({
      model: 'auto',
      input: 'What does ubiquitous mean?',
      tools: [LOOKUP],
    });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({
      name: 'lookup',
      arguments: '{"query":"What does ubiquitous mean?"}',
    });
    const second = await env.gateway.client.responses.create({
      model: 'auto',
      tools: [LOOKUP],
      input: [
        { role: 'user', content: 'What does ubiquitous mean?' },
        call!,
        {
          type: 'function_call_output',
          call_id: call!.type === 'function_call' ? call!.call_id : '',
          output: 'found everywhere',
        },
      ],
    });
    expect(second.output_text).toContain('found everywhere');
    expect(second.output_text).toContain("route 'simple'");
  });

  it('streams function-call arguments in pieces (through the OpenAI provider too)', async () => {
    for (const model of ['auto', 'fake/tools-model']) {
      const stream = await env.gateway.client.responses.create({
        model,
        input: 'define ubiquitous',
        tools: [LOOKUP],
        tool_choice: { type: 'function', name: 'lookup' },
        stream: true,
      });
      let deltas = 0;
      let args = '';
      let done = '';
      for await (const event of stream) {
        if (event.type === 'response.function_call_arguments.delta') {
          deltas++;
          args += event.delta;
        }
        if (event.type === 'response.function_call_arguments.done') done = event.arguments;
      }
      expect(deltas).toBeGreaterThan(1);
      expect(args).toBe(done);
      expect(JSON.parse(done)).toHaveProperty('query');
    }
  });

  it('text.format json_schema gets an object of the schema; an image input is accepted', async () => {
    const answer = await env.gateway.client.responses.create({
      model: 'auto',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: QUESTION },
            {
              type: 'input_image',
              image_url: 'data:image/png;base64,iVBORw0KGgo=',
              detail: 'auto',
            },
          ],
        },
      ],
      text: {
        format: {
          type: 'json_schema',
          name: 'city',
          schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    });
    expect(typeof JSON.parse(answer.output_text).city).toBe('string');
  });

  it('ends a stream that fails after it started with error and response.failed, never completed', async () => {
    const response = await postJson(`${env.gateway.url}/v1/responses`, {
      model: 'fake/m-fault-error-after-3',
      input: 'hello there my friend',
      stream: true,
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const events = [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(events).toContain('response.output_text.delta');
    expect(events.slice(-2)).toEqual(['error', 'response.failed']);
    expect(events).not.toContain('response.completed');
  });

  it.each([
    ['previous_response_id', { previous_response_id: 'resp_1' }, 'stores no responses'],
    ['an item_reference', { input: [{ type: 'item_reference', id: 'msg_1' }] }, 'item_reference'],
    ['a built-in tool', { tools: [{ type: 'web_search' }] }, 'built-in tools'],
    ['an unknown item', { input: [{ type: 'computer_call' }] }, "type 'computer_call'"],
    [
      'a file id',
      { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] },
      'file_id',
    ],
    [
      'an unoffered tool choice',
      { tool_choice: { type: 'function', name: 'x' } },
      "names the function 'x'",
    ],
    [
      'too many items',
      { input: Array.from({ length: 4097 }, () => ({ role: 'user', content: 'a' })) },
      'at most 4096',
    ],
    ['empty input', { input: [] }, 'non-empty array'],
    ['background', { background: true }, 'background'],
    ['a bad role', { input: [{ role: 'robot', content: 'a' }] }, 'role must be one of'],
  ])('refuses %s with a 400 naming it', async (_, fields, problem) => {
    const response = await postJson(`${env.gateway.url}/v1/responses`, {
      model: 'auto',
      input: 'hi',
      ...fields,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain(problem);
  });

  it('an unknown model is 404 model_not_found, as on chat completions', async () => {
    const response = await postJson(`${env.gateway.url}/v1/responses`, {
      model: 'nope',
      input: 'hi',
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'model_not_found',
    );
  });
});
