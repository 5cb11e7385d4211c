import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import { FakeProvider, fakeEmbedding, parseFault } from '../../../src/testing/index.js';

const chatBody = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'hello world' }],
  ...extra,
});

/** SSE `data:` payloads of a stream, in order. */
async function sseData(response: Response): Promise<string[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) =>
      frame
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    );
}

// Wire-level tests read loosely typed JSON.
// oxlint-disable-next-line no-explicit-any
async function json(response: Response | Promise<Response>): Promise<any> {
  return (await response).json();
}

function cosine(x: number[], y: number[]): number {
  return x.reduce((sum, v, i) => sum + v * y[i]!, 0);
}

/** The fake provider on the wire: what every provider test and the fault suite rely on. */
describe('FakeProvider', () => {
  let provider: FakeProvider;

  beforeAll(async () => {
    provider = await FakeProvider.start({ models: ['listed-model'] });
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.reset());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${provider.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', ...headers },
      body: JSON.stringify(body),
    });

  it('answers deterministically, naming the model, with usage', async () => {
    const first = await json(post('/v1/chat/completions', chatBody('echo-a')));
    const second = await json(post('/v1/chat/completions', chatBody('echo-a')));
    expect(first.choices[0].message.content).toBe('You said: hello world (model echo-a)');
    expect(second.choices[0].message.content).toBe(first.choices[0].message.content);
    expect(first.choices[0].finish_reason).toBe('stop');
    expect(first.usage).toEqual({ prompt_tokens: 2, completion_tokens: 6, total_tokens: 8 });
    expect(first.model).toBe('echo-a');
  });

  it('streams the same text token by token, usage in the last chunk, then [DONE]', async () => {
    const frames = await sseData(
      await post(
        '/v1/chat/completions',
        chatBody('echo-b', { stream: true, stream_options: { include_usage: true } }),
      ),
    );
    expect(frames[frames.length - 1]).toBe('[DONE]');
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame));
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('You said: hello world (model echo-b)');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('stop');
    expect(chunks[chunks.length - 1].choices).toEqual([]);
    expect(chunks[chunks.length - 1].usage.total_tokens).toBe(8);
  });

  it('records what it saw per model: count, timestamps, bodies and headers', async () => {
    let now = 1_000;
    const clocked = await FakeProvider.start({ clock: () => now });
    try {
      await fetch(`${clocked.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-custom': 'yes' },
        body: JSON.stringify(chatBody('logged')),
      });
      now = 2_500;
      await fetch(`${clocked.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(chatBody('logged', { temperature: 0.5 })),
      });
      const seen = clocked.requests.forModel('logged');
      expect(seen.count).toBe(2);
      expect(seen.timestamps).toEqual([1_000, 2_500]);
      expect((seen.bodies[1] as { temperature: number }).temperature).toBe(0.5);
      expect(seen.headers[0]!['x-custom']).toBe('yes');
      expect(clocked.requests.count('other')).toBe(0);
    } finally {
      await clocked.close();
    }
  });

  it('lists configured and seen models', async () => {
    await post('/v1/chat/completions', chatBody('seen-model'));
    const list = await json(fetch(`${provider.url}/v1/models`));
    expect(list.data.map((m: { id: string }) => m.id)).toEqual(['listed-model', 'seen-model']);
  });

  it('calls the first tool when the model name asks for tools, every tool for parallel-tools', async () => {
    const tools = [
      {
        type: 'function',
        function: {
          name: 'weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
      {
        type: 'function',
        function: { name: 'time', parameters: { type: 'object', properties: {} } },
      },
    ];
    const one = await json(post('/v1/chat/completions', chatBody('x-tools', { tools })));
    expect(one.choices[0].finish_reason).toBe('tool_calls');
    expect(one.choices[0].message.tool_calls).toHaveLength(1);
    expect(one.choices[0].message.tool_calls[0].function).toEqual({
      name: 'weather',
      arguments: JSON.stringify({ city: 'hello world' }),
    });
    const all = await json(post('/v1/chat/completions', chatBody('x-parallel-tools', { tools })));
    expect(
      all.choices[0].message.tool_calls.map((c: { function: { name: string } }) => c.function.name),
    ).toEqual(['weather', 'time']);
    const plain = await json(post('/v1/chat/completions', chatBody('x-plain', { tools })));
    expect(plain.choices[0].message.tool_calls).toBeUndefined();
  });

  it('answers a json_schema request with an object of that schema', async () => {
    const schema = {
      type: 'object',
      properties: {
        label: { type: 'string', enum: ['simple', 'complex'] },
        score: { type: 'number', maximum: 1 },
      },
    };
    const response = await json(
      post(
        '/v1/chat/completions',
        chatBody('json', {
          response_format: { type: 'json_schema', json_schema: { name: 'r', schema } },
        }),
      ),
    );
    expect(JSON.parse(response.choices[0].message.content)).toEqual({ label: 'simple', score: 1 });
  });

  it('reports top logprobs, scripted ones included', async () => {
    provider.setAnswer('judge', {
      text: 'B',
      firstTokenTopLogprobs: [
        { token: 'B', logprob: Math.log(0.7) },
        { token: 'A', logprob: Math.log(0.3) },
      ],
    });
    const response = await json(
      post('/v1/chat/completions', chatBody('judge', { logprobs: true, top_logprobs: 2 })),
    );
    const first = response.choices[0].logprobs.content[0];
    expect(first.token).toBe('B');
    expect(first.top_logprobs.map((t: { token: string }) => t.token)).toEqual(['B', 'A']);
    expect(Math.exp(first.top_logprobs[1].logprob)).toBeCloseTo(0.3);
  });

  it('continues a trailing assistant message (prefill) with what follows it', async () => {
    const response = await json(
      post('/v1/chat/completions', {
        model: 'second',
        messages: [
          { role: 'user', content: 'hello world' },
          { role: 'assistant', content: 'You said: hello' },
        ],
      }),
    );
    expect(response.choices[0].message.content).toBe(' world (model second)');
  });

  it('serves deterministic embeddings where shared words are close, as floats or base64', async () => {
    const response = await json(
      post('/v1/embeddings', {
        model: 'emb',
        input: ['billing invoice refund', 'refund my invoice', 'kubernetes pod crash'],
      }),
    );
    const [a, b, c] = response.data.map((d: { embedding: number[] }) => d.embedding) as number[][];
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!));
    expect(cosine(a!, a!)).toBeCloseTo(1);
    expect(a).toEqual(fakeEmbedding('billing invoice refund'));
    const client = new OpenAI({ baseURL: provider.openaiBaseURL, apiKey: 'k', maxRetries: 0 });
    const viaSdk = await client.embeddings.create({ model: 'emb', input: 'refund my invoice' });
    expect(viaSdk.data[0]!.embedding[3]).toBeCloseTo(b![3]!, 6);
  });

  it('speaks Anthropic messages, JSON and SSE', async () => {
    const body = {
      model: 'claude-fake',
      max_tokens: 100,
      system: 'be brief',
      messages: [{ role: 'user', content: 'hi there' }],
    };
    const message = await json(post('/v1/messages', body));
    expect(message.content).toEqual([
      { type: 'text', text: 'You said: hi there (model claude-fake)' },
    ]);
    expect(message.stop_reason).toBe('end_turn');
    const frames = await sseData(await post('/v1/messages', { ...body, stream: true }));
    const events = frames.map((frame) => JSON.parse(frame).type);
    expect(events[0]).toBe('message_start');
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
  });

  it('rejects an Anthropic prefill ending in whitespace, like the real API', async () => {
    const response = await post('/v1/messages', {
      model: 'claude-fake',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Sure ' },
      ],
    });
    expect(response.status).toBe(400);
    expect((await json(response)).error.message).toMatch(/trailing whitespace/);
  });

  describe('faults', () => {
    it('fault-500-once fails the first request only', async () => {
      expect((await post('/v1/chat/completions', chatBody('m-fault-500-once'))).status).toBe(500);
      expect((await post('/v1/chat/completions', chatBody('m-fault-500-once'))).status).toBe(200);
      expect(provider.requests.forModel('m-fault-500-once').requests.map((r) => r.fault)).toEqual([
        'fault-500-once',
        undefined,
      ]);
    });

    it('sends Retry-After in seconds, milliseconds or as an HTTP date', async () => {
      const s = await post('/v1/chat/completions', chatBody('fault-429-retry-after-2'));
      expect([s.status, s.headers.get('retry-after')]).toEqual([429, '2']);
      const ms = await post('/v1/chat/completions', chatBody('fault-429-retry-after-ms-1500'));
      expect(ms.headers.get('retry-after-ms')).toBe('1500');
      const date = await post('/v1/chat/completions', chatBody('fault-503-retry-after-date-60'));
      expect(Date.parse(date.headers.get('retry-after')!)).toBeGreaterThan(Date.now() + 55_000);
    });

    it('echoes the presented key in a 401, as real APIs do', async () => {
      const response = await post('/v1/chat/completions', chatBody('fault-401'), {
        authorization: 'Bearer sk-secret-123456789',
      });
      expect(JSON.stringify(await json(response))).toContain('sk-secret-123456789');
    });

    it('cuts a stream after N tokens: no finish reason, no [DONE]', async () => {
      const response = await post(
        '/v1/chat/completions',
        chatBody('fault-cut-after-2', { stream: true }),
      );
      await expect(response.text()).rejects.toThrow();
    });

    it('slow-first-token delays the first token, then streams the whole answer', async () => {
      const frames = await sseData(
        await post('/v1/chat/completions', chatBody('fault-slow-first-token-5', { stream: true })),
      );
      const text = frames
        .slice(0, -1)
        .map((frame) => JSON.parse(frame).choices[0]?.delta?.content ?? '')
        .join('');
      expect(text).toBe('You said: hello world (model fault-slow-first-token-5)');
      expect(frames.at(-1)).toBe('[DONE]');
    });

    it('no-done: a complete stream without the terminator', async () => {
      const frames = await sseData(
        await post('/v1/chat/completions', chatBody('fault-no-done', { stream: true })),
      );
      expect(frames).not.toContain('[DONE]');
      expect(JSON.parse(frames[frames.length - 1]!).choices[0].finish_reason).toBe('stop');
    });

    it('malformed-chunk: one unparseable frame, the rest intact', async () => {
      const frames = await sseData(
        await post('/v1/chat/completions', chatBody('fault-malformed-chunk', { stream: true })),
      );
      const unparseable = frames.filter((frame) => {
        try {
          JSON.parse(frame);
          return false;
        } catch {
          return frame !== '[DONE]';
        }
      });
      expect(unparseable).toHaveLength(1);
    });

    it('setFault overrides the name at runtime, and "none" heals it', async () => {
      provider.setFault('flappy', 'fault-503');
      expect((await post('/v1/chat/completions', chatBody('flappy'))).status).toBe(503);
      provider.setFault('flappy', undefined);
      expect((await post('/v1/chat/completions', chatBody('flappy'))).status).toBe(200);
      provider.setFault('fault-503', 'none');
      expect((await post('/v1/chat/completions', chatBody('fault-503'))).status).toBe(200);
    });

    it('names the known faults when a model asks for an unknown one', async () => {
      const response = await post('/v1/chat/completions', chatBody('fault-gremlins'));
      expect(response.status).toBe(400);
      expect((await json(response)).error.message).toContain('fault-cut-after-<n>');
      expect(() => parseFault('fault-nope')).toThrow(/Unknown fault 'fault-nope'/);
    });

    it('finds no fault in names that merely contain the letters (default-model)', async () => {
      expect((await post('/v1/chat/completions', chatBody('default-model'))).status).toBe(200);
    });

    it('close() ends hung and stalled connections, so nothing keeps the process alive', async () => {
      const own = await FakeProvider.start();
      const hung = fetch(`${own.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify(chatBody('fault-hang')),
      }).then(
        () => 'answered',
        () => 'failed',
      );
      const stalled = await fetch(`${own.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify(chatBody('fault-stall-after-1', { stream: true })),
      });
      const reader = stalled.body!.getReader();
      await reader.read();
      const slow = fetch(`${own.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify(chatBody('fault-slow-first-token-600000')),
      }).then(
        () => 'answered',
        () => 'failed',
      );
      while (own.requests.count() < 3) await new Promise((resolve) => setImmediate(resolve));
      await own.close();
      expect(await hung).toBe('failed');
      expect(await slow).toBe('failed');
      await expect(reader.read()).rejects.toThrow();
    });
  });
});
