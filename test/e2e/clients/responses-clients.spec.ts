import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createOpenAI } from '@ai-sdk/openai';
import { ChatOpenAI } from '@langchain/openai';
import type { AIMessageChunk } from '@langchain/core/messages';
import { generateObject, generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { startClientGateway, type ClientGateway } from './client-gateway.js';

const QUESTION = 'What is the capital of France?';
const lookup = (calls: string[]) =>
  tool({
    description: 'Looks a term up',
    inputSchema: jsonSchema<{ query: string }>({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    }),
    execute: async ({ query }) => {
      calls.push(query);
      return `definition of ${query}`;
    },
  });

/**
 * The clients that use the Responses API without being asked: `@ai-sdk/openai`'s default
 * `openai(id)`, and LangChain's ChatOpenAI for codex / gpt-5.x-pro model names.
 */
describe('the Vercel AI SDK’s default openai(id): /v1/responses', () => {
  let env: ClientGateway;
  let openai: ReturnType<typeof createOpenAI>;

  beforeAll(async () => {
    env = await startClientGateway();
    openai = createOpenAI({ baseURL: `${env.gateway.url}/v1`, apiKey: 'not-needed' });
  });

  afterAll(async () => {
    await env.close();
  });

  it('generateText and streamText give the same text and usage', async () => {
    const plain = await generateText({ model: openai('auto'), prompt: QUESTION, maxRetries: 0 });
    expect(plain.text).toMatch(/^Model 'demo-mini' on router 'auto', route 'simple'/);
    expect(plain.finishReason).toBe('stop');
    const streamed = streamText({ model: openai('auto'), prompt: QUESTION, maxRetries: 0 });
    expect(await streamed.text).toBe(plain.text);
    expect((await streamed.usage).outputTokens).toBe(plain.usage.outputTokens);
  });

  it('runs a tool over two steps and forces a named tool', async () => {
    const calls: string[] = [];
    const result = await generateText({
      model: openai('auto'),
      tools: { lookup: lookup(calls) },
      stopWhen: stepCountIs(3),
      prompt: 'What does ubiquitous mean?',
      maxRetries: 0,
    });
    expect(calls).toEqual(['What does ubiquitous mean?']);
    expect(result.steps).toHaveLength(2);
    expect(result.text).toContain('definition of What does ubiquitous mean?');
    expect(result.text).toContain("route 'simple'");

    const forced = await generateText({
      model: openai('auto'),
      tools: { lookup: lookup([]) },
      toolChoice: { type: 'tool', toolName: 'lookup' },
      prompt: 'hello',
      maxRetries: 0,
    });
    expect(forced.toolCalls.map((call) => call.toolName)).toEqual(['lookup']);
  });

  it('streams a tool step as tool-input deltas', async () => {
    const result = streamText({
      model: openai('fake/tools-model'),
      tools: { lookup: lookup([]) },
      prompt: 'define ubiquitous',
      maxRetries: 0,
    });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types.filter((type) => type === 'tool-input-delta').length).toBeGreaterThan(1);
    expect(types).toContain('tool-call');
    expect(types).not.toContain('error');
  });

  it('generateObject gets an object of the schema', async () => {
    const { object } = await generateObject({
      model: openai('auto'),
      schema: jsonSchema<{ city: string }>({
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      }),
      prompt: QUESTION,
      maxRetries: 0,
    });
    expect(typeof object.city).toBe('string');
  });

  it('reports a provider failure as an error, not as an answer', async () => {
    await expect(
      generateText({ model: openai('fake/m-fault-503'), prompt: 'hi', maxRetries: 0 }),
    ).rejects.toThrow();
  });
});

describe('LangChain ChatOpenAI on the Responses API', () => {
  let env: ClientGateway;

  beforeAll(async () => {
    env = await startClientGateway();
  });

  afterAll(async () => {
    await env.close();
  });

  const chat = (model: string, extra: { useResponsesApi?: boolean } = {}) =>
    new ChatOpenAI({
      model,
      apiKey: 'not-needed',
      configuration: { baseURL: `${env.gateway.url}/v1` },
      maxRetries: 0,
      ...extra,
    });

  it('a codex model name goes to /v1/responses and is served', async () => {
    const answer = await chat('fake/gpt-5.1-codex').invoke('hello there');
    expect(answer.text).toBe('You said: hello there (model gpt-5.1-codex)');
    // it came from /v1/responses, not chat completions
    expect(answer.response_metadata).toMatchObject({ object: 'response', status: 'completed' });
    expect(answer.usage_metadata?.total_tokens).toBeGreaterThan(0);
  });

  it('stream adds up to invoke, usage included (useResponsesApi on a router)', async () => {
    const model = chat('auto', { useResponsesApi: true });
    const plain = await model.invoke(QUESTION);
    let joined: AIMessageChunk | undefined;
    for await (const chunk of await model.stream(QUESTION)) {
      joined = joined ? joined.concat(chunk) : chunk;
    }
    expect(joined!.text).toBe(plain.text);
    expect(joined!.usage_metadata).toEqual(plain.usage_metadata);
    expect(plain.response_metadata).toMatchObject({ object: 'response' });
  });

  it('bindTools round trip on the Responses API', async () => {
    const model = chat('auto', { useResponsesApi: true }).bindTools([
      {
        type: 'function',
        function: {
          name: 'lookup',
          parameters: { type: 'object', properties: { query: { type: 'string' } } },
        },
      },
    ]);
    const call = await model.invoke('What does ubiquitous mean?');
    expect(call.tool_calls?.[0]?.name).toBe('lookup');
    const answer = await model.invoke([
      { role: 'user', content: 'What does ubiquitous mean?' },
      call,
      { role: 'tool', content: 'everywhere', tool_call_id: call.tool_calls![0]!.id! },
    ]);
    expect(answer.text).toContain('everywhere');
  });
});
