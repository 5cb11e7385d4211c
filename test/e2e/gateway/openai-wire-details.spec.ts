import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { startGateway, user, type RunningGateway } from './gateway-harness.js';

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ config: demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }) });
});

afterAll(() => gateway.close());

/** Issue 12, point 12: details where the gateway differed from OpenAI, seen through its SDK. */
describe('OpenAI wire details', () => {
  it('gives a non-streamed completion a chatcmpl- id (the demo model’s own id was used)', async () => {
    const first = await gateway.client.chat.completions.create({
      model: 'demo-mini',
      messages: [user('hi')],
    });
    const second = await gateway.client.chat.completions.create({
      model: 'demo-mini',
      messages: [user('hi')],
    });
    expect(first.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(second.id).not.toBe(first.id);
  });

  it('sends usage in a last chunk with choices: [] when stream_options.include_usage is set', async () => {
    const stream = await gateway.client.chat.completions.create({
      model: 'demo-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [user('hi')],
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.total_tokens).toBeGreaterThan(0);
    const finish = chunks.at(-2)!;
    expect(finish.choices[0]!.finish_reason).toBe('stop');
    expect(finish.usage ?? null).toBeNull();
    expect(chunks.slice(0, -1).every((chunk) => chunk.choices.length === 1)).toBe(true);
  });

  it('answers n > 1 with 400 naming n, instead of one choice', async () => {
    const failure = await gateway.client.chat.completions
      .create({ model: 'demo-mini', n: 2, messages: [user('hi')] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as { param?: unknown }).param).toBe('n');
  });

  it('takes n: 1', async () => {
    const completion = await gateway.client.chat.completions.create({
      model: 'demo-mini',
      n: 1,
      messages: [user('hi')],
    });
    expect(completion.choices).toHaveLength(1);
  });
});
