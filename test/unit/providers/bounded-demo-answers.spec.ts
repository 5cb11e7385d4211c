import { describe, expect, it } from '@jest/globals';
import {
  boundedSampleForSchema,
  capBytes,
  DEMO_MAX_ANSWER_BYTES,
} from '../../../src/providers/local/bounded-sample.js';
import { LocalDemoChatModel } from '../../../src/providers/local/local-demo-chat-model.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';

const stringProperties = (count: number) => ({
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`field${i}`, { type: 'string' }]),
  ),
});

const bytes = (text: string | undefined) => Buffer.byteLength(text ?? '');

describe('boundedSampleForSchema', () => {
  it('fills a small schema whole, each string with a short summary of the hint', () => {
    const sample = boundedSampleForSchema(
      {
        type: 'object',
        properties: {
          city: { type: 'string' },
          pop: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' } },
          kind: { enum: ['a', 'b'] },
        },
      },
      'a city',
    );
    expect(sample).toEqual({
      value: { city: 'a city', pop: 0, tags: ['a city'], kind: 'a' },
      truncated: false,
    });
  });

  it('never echoes a long hint whole into a string value', () => {
    const hint = 'word '.repeat(10_000);
    const { value } = boundedSampleForSchema({ type: 'string' }, hint);
    expect(typeof value).toBe('string');
    expect((value as string).length).toBeLessThanOrEqual(201);
  });

  it('stops adding properties once the budget is spent, and says so', () => {
    const { value, truncated } = boundedSampleForSchema(stringProperties(2_000), 'x'.repeat(500));
    expect(truncated).toBe(true);
    const json = JSON.stringify(value);
    expect(bytes(json)).toBeLessThanOrEqual(DEMO_MAX_ANSWER_BYTES);
    expect(Object.keys(value as object).length).toBeGreaterThan(100);
    expect(Object.keys(value as object).length).toBeLessThan(2_000);
  });

  it('samples a schema nested deeper than any answer needs as null, without recursing on', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5_000; i++) schema = { type: 'array', items: schema };
    const { value } = boundedSampleForSchema(schema, 'hint');
    expect(JSON.stringify(value)).toContain('null');
    expect(bytes(JSON.stringify(value))).toBeLessThan(200);
  });
});

describe('capBytes', () => {
  it('keeps a text within its budget, never splitting a character', () => {
    const text = '😀é'.repeat(50_000);
    const { text: capped, cut } = capBytes(text, 1_001);
    expect(cut).toBe(true);
    expect(bytes(capped)).toBeLessThanOrEqual(1_001);
    expect(bytes(capped)).toBeGreaterThan(800);
    expect(text.startsWith(capped)).toBe(true);
    expect(capped).not.toContain('\uFFFD');
    expect(capBytes('short', 10)).toEqual({ text: 'short', cut: false });
  });
});

describe('LocalDemoChatModel answers are bounded (issue 24, point 6)', () => {
  const model = new LocalDemoChatModel({ name: 'demo' });
  const bigQuestion = 'tell me everything '.repeat(55_000); // ~1 MB

  it('answers a JSON schema of 2,000 string properties without a RangeError', async () => {
    const request: ChatRequest = {
      messages: [{ role: 'user', content: bigQuestion }],
      parameters: {
        responseFormat: {
          type: 'json',
          jsonSchema: { name: 'wide', schema: stringProperties(2_000) },
        },
      },
    };
    const response = await model.chat(request);
    expect(bytes(response.aiMessage.text)).toBeLessThanOrEqual(DEMO_MAX_ANSWER_BYTES);
    expect(() => JSON.parse(response.aiMessage.text!) as unknown).not.toThrow();
    expect(response.finishReason).toBe('length');
  });

  it('bounds a tool call whose parameters ask for many strings', async () => {
    const response = await model.chat({
      messages: [{ role: 'user', content: bigQuestion }],
      parameters: { tools: [{ name: 'fill', parameters: stringProperties(2_000) }] },
    });
    const args = response.aiMessage.toolCalls![0]!.arguments;
    expect(bytes(args)).toBeLessThanOrEqual(DEMO_MAX_ANSWER_BYTES);
    expect(Object.keys(JSON.parse(args) as object).length).toBeGreaterThan(0);
  });

  it('bounds an answer that echoes a huge tool result, streamed or not', async () => {
    const request: ChatRequest = {
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', toolCalls: [{ id: 'c1', name: 'fetch', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c1', text: 'row '.repeat(500_000) },
      ],
    };
    const response = await model.chat(request);
    expect(bytes(response.aiMessage.text)).toBeLessThanOrEqual(DEMO_MAX_ANSWER_BYTES);
    expect(response.aiMessage.text).toContain('The tool returned: row row');
    expect(response.finishReason).toBe('length');
    let streamed = '';
    for await (const event of model.stream(request)) {
      if (event.type === 'text-delta') streamed += event.text;
    }
    expect(bytes(streamed)).toBeLessThanOrEqual(DEMO_MAX_ANSWER_BYTES);
  });

  it('takes a smaller bound of its own', async () => {
    const small = new LocalDemoChatModel({ name: 'small', maxAnswerBytes: 1_000 });
    const response = await small.chat({
      messages: [{ role: 'user', content: 'q' }],
      parameters: {
        responseFormat: { type: 'json', jsonSchema: { name: 'w', schema: stringProperties(500) } },
      },
    });
    expect(bytes(response.aiMessage.text)).toBeLessThanOrEqual(1_000);
  });

  it('still cuts at a request maxOutputTokens smaller than the byte bound', async () => {
    const response = await model.chat({
      messages: [{ role: 'user', content: bigQuestion }],
      parameters: { maxOutputTokens: 5 },
    });
    expect(response.aiMessage.text!.split(/\s+/).filter(Boolean)).toHaveLength(5);
    expect(response.finishReason).toBe('length');
  });
});

describe('LocalDemoChatModel options', () => {
  it('refuses a byte bound that is not a whole number ≥ 64, naming the model', () => {
    expect(() => new LocalDemoChatModel({ name: 'tiny', maxAnswerBytes: 10 })).toThrow(
      "Model 'tiny': maxAnswerBytes must be a whole number of bytes ≥ 64; got 10.",
    );
  });
});
