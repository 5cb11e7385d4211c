import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  generateObject,
  generateText,
  jsonSchema,
  stepCountIs,
  streamText,
  tool,
  type LanguageModel,
} from 'ai';
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
const other = tool({
  description: 'Never wanted here',
  inputSchema: jsonSchema<{ x: string }>({ type: 'object', properties: { x: { type: 'string' } } }),
  execute: async () => 'other',
});

/**
 * The Vercel AI SDK against the gateway's chat completions, with both of its providers that
 * speak that API: `@ai-sdk/openai`'s `openai.chat(...)` and `@ai-sdk/openai-compatible`.
 */
describe('the Vercel AI SDK (ai@6) on /v1/chat/completions', () => {
  let env: ClientGateway;
  let providers: [string, (id: string) => LanguageModel][];

  beforeAll(async () => {
    env = await startClientGateway();
    const baseURL = `${env.gateway.url}/v1`;
    const openai = createOpenAI({ baseURL, apiKey: 'not-needed' });
    const compatible = createOpenAICompatible({
      name: 'gateway',
      baseURL,
      apiKey: 'not-needed',
      includeUsage: true,
      supportsStructuredOutputs: true,
    });
    providers = [
      ['@ai-sdk/openai chat', (id) => openai.chat(id)],
      ['@ai-sdk/openai-compatible', (id) => compatible.chatModel(id)],
    ];
  });

  afterAll(async () => {
    await env.close();
  });

  it('generateText answers with the routed model’s text and usage', async () => {
    for (const [, model] of providers) {
      const result = await generateText({ model: model('auto'), prompt: QUESTION, maxRetries: 0 });
      expect(result.text).toMatch(/^Model 'demo-mini' on router 'auto', route 'simple'/);
      expect(result.finishReason).toBe('stop');
      expect(result.usage.outputTokens).toBe(result.text.split(/\s+/).length);
      expect(result.response.modelId).toBe('demo-mini');
    }
  });

  it('streamText streams the same text as generateText, with the same usage', async () => {
    for (const [, model] of providers) {
      const plain = await generateText({ model: model('auto'), prompt: QUESTION, maxRetries: 0 });
      const result = streamText({ model: model('auto'), prompt: QUESTION, maxRetries: 0 });
      let deltas = 0;
      for await (const part of result.fullStream) if (part.type === 'text-delta') deltas++;
      expect(deltas).toBeGreaterThan(3);
      expect(await result.text).toBe(plain.text);
      expect(await result.usage).toMatchObject({
        inputTokens: plain.usage.inputTokens,
        outputTokens: plain.usage.outputTokens,
      });
    }
  });

  it('generateObject gets an object of the schema', async () => {
    for (const [, model] of providers) {
      const { object } = await generateObject({
        model: model('auto'),
        schema: jsonSchema<{ city: string; population: number }>({
          type: 'object',
          properties: { city: { type: 'string' }, population: { type: 'number' } },
          required: ['city', 'population'],
          additionalProperties: false,
        }),
        prompt: QUESTION,
        maxRetries: 0,
      });
      expect(typeof object.city).toBe('string');
      expect(typeof object.population).toBe('number');
    }
  });

  it('runs a tool over two steps: the tool call, then the answer from its result', async () => {
    for (const [, model] of providers) {
      const calls: string[] = [];
      const result = await generateText({
        model: model('auto'),
        tools: { lookup: lookup(calls) },
        stopWhen: stepCountIs(3),
        prompt: 'What does ubiquitous mean?',
        maxRetries: 0,
      });
      expect(calls).toEqual(['What does ubiquitous mean?']);
      expect(result.steps).toHaveLength(2);
      expect(result.steps[0]!.finishReason).toBe('tool-calls');
      // the tool round returned to the same route (the route travels in the tool call id)
      expect(result.text).toContain("route 'simple'");
      expect(result.text).toContain('definition of What does ubiquitous mean?');
    }
  });

  it('forces a named tool with toolChoice { type: tool }', async () => {
    for (const [, model] of providers) {
      const calls: string[] = [];
      const result = await generateText({
        model: model('auto'),
        tools: { other, lookup: lookup(calls) },
        toolChoice: { type: 'tool', toolName: 'lookup' },
        prompt: 'What does ubiquitous mean?',
        maxRetries: 0,
      });
      expect(result.toolCalls.map((call) => call.toolName)).toEqual(['lookup']);
      expect(calls).toHaveLength(1);
    }
  });

  it('streams a tool-call step with no empty text part and the arguments in pieces', async () => {
    for (const [, model] of providers) {
      for (const id of ['auto', 'fake/tools-model']) {
        const result = streamText({
          model: model(id),
          tools: { lookup: lookup([]) },
          prompt: 'What does ubiquitous mean?',
          maxRetries: 0,
        });
        const types: string[] = [];
        for await (const part of result.fullStream) types.push(part.type);
        expect(types).not.toContain('text-start');
        expect(types.filter((type) => type === 'tool-input-delta').length).toBeGreaterThan(1);
        expect(types.indexOf('tool-input-start')).toBeLessThan(types.indexOf('tool-call'));
        expect((await result.toolCalls).map((call) => call.toolName)).toEqual(['lookup']);
      }
    }
  });
});

describe('the Vercel AI SDK: abort', () => {
  let env: ClientGateway;

  beforeAll(async () => {
    // slow words: the whole answer (some 40 words) would take about 10 s, so a stream that
    // stopped at the abort and one that ran to its end are far apart even on a busy machine
    env = await startClientGateway({ tokenDelayMs: 250 });
  });

  afterAll(async () => {
    await env.close();
  });

  it('an aborted streamText stops the stream early and the gateway keeps serving', async () => {
    const compatible = createOpenAICompatible({
      name: 'gateway',
      baseURL: `${env.gateway.url}/v1`,
      apiKey: 'not-needed',
    });
    const controller = new AbortController();
    const aborted: unknown[] = [];
    const started = Date.now();
    const result = streamText({
      model: compatible.chatModel('auto'),
      prompt: 'Prove that there are infinitely many prime numbers.',
      abortSignal: controller.signal,
      maxRetries: 0,
      onAbort: (event) => void aborted.push(event),
      onError: () => undefined,
    });
    let text = '';
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        text += part.text;
        controller.abort();
      }
    }
    expect(aborted).toHaveLength(1);
    expect(text.split(/\s+/).length).toBeLessThan(5);
    expect(Date.now() - started).toBeLessThan(4_000);

    const after = await generateText({
      model: compatible.chatModel('demo-mini'),
      prompt: 'hi',
      maxRetries: 0,
    });
    expect(after.text).toContain("Model 'demo-mini'");
  });
});
