import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startClientGateway, type ClientGateway } from './client-gateway.js';

/** The chat-completions fields OpenAI sends that clients read, through a real OpenAI provider. */
describe('chat completions: what the upstream said reaches the client', () => {
  let env: ClientGateway;

  beforeAll(async () => {
    env = await startClientGateway();
  });

  afterAll(async () => {
    await env.close();
  });

  it('passes system_fingerprint through, with logprobs null as OpenAI sends it', async () => {
    const data = await env.gateway.client.chat.completions.create({
      model: 'fake/gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(data.system_fingerprint).toBe('fp_fake');
    expect(data.choices[0]!.message.refusal ?? null).toBeNull();
    expect(data.choices[0]!.logprobs).toBeNull();
  });

  it('streams content null in the role chunk, then text, and the fingerprint at the end', async () => {
    const stream = await env.gateway.client.chat.completions.create({
      model: 'fake/gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]!.choices[0]!.delta).toEqual({
      role: 'assistant',
      content: null,
      refusal: null,
    });
    expect(chunks.some((chunk) => chunk.system_fingerprint === 'fp_fake')).toBe(true);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('You said: hello (model gpt-4o-mini)');
  });

  it('a named tool_choice for a function that is not offered is a 400', async () => {
    await expect(
      env.gateway.client.chat.completions.create({
        model: 'auto',
        messages: [{ role: 'user', content: 'hello' }],
        tools: [{ type: 'function', function: { name: 'lookup' } }],
        tool_choice: { type: 'function', function: { name: 'other' } },
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
