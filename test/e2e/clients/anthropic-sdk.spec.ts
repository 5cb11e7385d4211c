import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { z } from 'zod';
import { postJson } from '../gateway/gateway-harness.js';
import { startClientGateway, type ClientGateway } from './client-gateway.js';

const QUESTION = 'What is the capital of France?';
const LOOKUP = {
  name: 'lookup',
  description: 'Looks a term up',
  input_schema: {
    type: 'object' as const,
    properties: { query: { type: 'string' } },
    required: ['query'],
  },
};

/** The Anthropic SDK with `baseURL` set to the gateway: POST /v1/messages. */
describe('POST /v1/messages through the Anthropic SDK', () => {
  let env: ClientGateway;
  let client: Anthropic;

  beforeAll(async () => {
    env = await startClientGateway();
    client = new Anthropic({ baseURL: env.gateway.url, apiKey: 'sk-ant-client', maxRetries: 0 });
  });

  afterAll(async () => {
    await env.close();
  });

  it('messages.create answers with text, usage and the routing headers', async () => {
    const { data, response } = await client.messages
      .create({
        model: 'auto',
        max_tokens: 200,
        system: 'Be brief.',
        messages: [{ role: 'user', content: QUESTION }],
      })
      .withResponse();
    expect(response.headers.get('x-model-router-route')).toBe('simple');
    expect(data.type).toBe('message');
    expect(data.model).toBe('demo-mini');
    expect(data.stop_reason).toBe('end_turn');
    const text = data.content[0]!.type === 'text' ? data.content[0]!.text : '';
    expect(text).toMatch(/^Model 'demo-mini' on router 'auto', route 'simple'/);
    expect(data.usage.output_tokens).toBe(text.split(/\s+/).length);
  });

  it('messages.stream streams the same text, and finalMessage has the same usage', async () => {
    const plain = await client.messages.create({
      model: 'auto',
      max_tokens: 200,
      messages: [{ role: 'user', content: QUESTION }],
    });
    const stream = client.messages.stream({
      model: 'auto',
      max_tokens: 200,
      messages: [{ role: 'user', content: QUESTION }],
    });
    const types: string[] = [];
    let text = '';
    stream.on('streamEvent', (event) => void types.push(event.type));
    stream.on('text', (delta) => void (text += delta));
    const final = await stream.finalMessage();
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(text).toBe(plain.content[0]!.type === 'text' ? plain.content[0]!.text : '');
    expect(final.usage.output_tokens).toBe(plain.usage.output_tokens);
    expect(final.usage.input_tokens).toBe(plain.usage.input_tokens);
    expect(final.stop_reason).toBe('end_turn');
  });

  it('a tool round trip: tool_use, then tool_result, back to the same route', async () => {
    const question = { role: 'user' as const, content: 'What does ubiquitous mean?' };
    const call = await client.messages.create({
      model: 'auto',
      max_tokens: 200,
      tools: [LOOKUP],
      messages: [question],
    });
    expect(call.stop_reason).toBe('tool_use');
    const use = call.content.find((block) => block.type === 'tool_use');
    expect(use).toMatchObject({ name: 'lookup', input: { query: 'What does ubiquitous mean?' } });
    const answer = await client.messages.create({
      model: 'auto',
      max_tokens: 200,
      tools: [LOOKUP],
      messages: [
        question,
        { role: 'assistant', content: call.content },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: use!.type === 'tool_use' ? use!.id : '',
              content: 'everywhere',
            },
          ],
        },
      ],
    });
    const text = answer.content[0]!.type === 'text' ? answer.content[0]!.text : '';
    expect(text).toContain('everywhere');
    expect(text).toContain("route 'simple'");
  });

  it('streams tool input as input_json_delta pieces, forced by tool_choice { type: tool }', async () => {
    for (const model of ['auto', 'fake/tools-model', 'fake-anthropic/claude-tools']) {
      const stream = client.messages.stream({
        model,
        max_tokens: 200,
        tools: [{ ...LOOKUP, name: 'other' }, LOOKUP],
        tool_choice: { type: 'tool', name: 'lookup' },
        messages: [{ role: 'user', content: 'define ubiquitous' }],
      });
      let pieces = 0;
      stream.on('inputJson', () => void pieces++);
      const final = await stream.finalMessage();
      const use = final.content.find((block) => block.type === 'tool_use');
      expect(use?.type === 'tool_use' && use.name).toBe('lookup');
      expect(use?.type === 'tool_use' && typeof (use.input as { query?: unknown }).query).toBe(
        'string',
      );
      expect(pieces).toBeGreaterThan(1);
    }
  });

  it('structured outputs: messages.parse (output_config.format) answers the schema', async () => {
    const person = z.object({ name: z.string(), age: z.number().int() });
    const parsed = await client.messages.parse({
      model: 'auto',
      max_tokens: 200,
      output_config: { format: zodOutputFormat(person) },
      messages: [{ role: 'user', content: 'Describe a person' }],
    });
    expect(person.parse(parsed.parsed_output)).toEqual(parsed.parsed_output);
    // the beta's top-level name, streamed
    const stream = client.messages.stream({
      model: 'demo-pro',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Describe a person' }],
      ...({ output_format: { type: 'json_schema', schema: z.toJSONSchema(person) } } as object),
    });
    const final = await stream.finalMessage();
    const text = final.content[0]!.type === 'text' ? final.content[0]!.text : '';
    expect(person.safeParse(JSON.parse(text)).success).toBe(true);
  });

  it('plain-text documents (text and content sources) reach the provider as text', async () => {
    const answer = await client.messages.create({
      model: 'fake/doc-model',
      max_tokens: 50,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              title: 'Sky',
              citations: { enabled: true },
              source: { type: 'text', media_type: 'text/plain', data: 'The sky is blue.' },
            },
            {
              type: 'document',
              source: { type: 'content', content: [{ type: 'text', text: 'Grass is green.' }] },
            },
            { type: 'text', text: 'What colours?' },
          ],
        },
      ],
    });
    expect(answer.stop_reason).toBe('end_turn');
    const sent = JSON.stringify(env.fake.requests.all().at(-1)!.body);
    for (const text of ['Sky', 'The sky is blue.', 'Grass is green.', 'What colours?']) {
      expect(sent).toContain(text);
    }
  });

  it('errors come as the SDK’s typed errors, with Anthropic’s error shape', async () => {
    await expect(
      client.messages.create({
        model: 'nope',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    const bad = await postJson(`${env.gateway.url}/v1/messages`, { model: 'auto', messages: [] });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('max_tokens');
    expect(body.error.message).toContain('messages must be a non-empty array');
  });

  it('a stream that fails after it started ends with an error event and no message_stop', async () => {
    const response = await postJson(`${env.gateway.url}/v1/messages`, {
      model: 'fake/m-fault-error-after-3',
      max_tokens: 100,
      stream: true,
      messages: [{ role: 'user', content: 'hello there my friend' }],
    });
    const text = await response.text();
    const events = [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(events).toContain('content_block_delta');
    expect(events.at(-1)).toBe('error');
    expect(events).not.toContain('message_stop');
    await expect(
      client.messages
        .stream({
          model: 'fake/m-fault-error-after-3',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'hello there my friend' }],
        })
        .finalMessage(),
    ).rejects.toThrow();
  });

  it.each([
    [
      'a server tool',
      { tools: [{ type: 'web_search_20250305', name: 'web_search' }] },
      'server tools',
    ],
    [
      'a system role in messages',
      { messages: [{ role: 'system', content: 'x' }] },
      'role must be user or assistant',
    ],
    [
      'tool_use from the user',
      {
        messages: [
          { role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'b', input: {} }] },
        ],
      },
      'belong to assistant',
    ],
    [
      'an unoffered tool choice',
      { tool_choice: { type: 'tool', name: 'x' } },
      "names the tool 'x'",
    ],
    [
      'a file source',
      {
        messages: [
          { role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'f' } }] },
        ],
      },
      'not stored',
    ],
    [
      'too many messages',
      { messages: Array.from({ length: 4097 }, () => ({ role: 'user', content: 'a' })) },
      'at most 4096',
    ],
    ['max_tokens 0', { max_tokens: 0 }, 'max_tokens'],
    [
      'an image in a tool_result',
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 't1',
                content: [
                  { type: 'image', source: { type: 'url', url: 'https://a.example/x.png' } },
                ],
              },
            ],
          },
        ],
      },
      "'image' is not supported in a tool_result",
    ],
    [
      'an output format that is not a JSON schema',
      { output_config: { format: { type: 'text' } } },
      'output_config.format.type',
    ],
  ])('refuses %s with a 400 naming it', async (_, fields, problem) => {
    const response = await postJson(`${env.gateway.url}/v1/messages`, {
      model: 'auto',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
      ...fields,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain(problem);
  });
});
