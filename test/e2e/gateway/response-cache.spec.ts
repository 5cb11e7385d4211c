import { describe, expect, it } from '@jest/globals';
import { sseData } from './gateway-harness.js';
import { KEYS, useFakeGateway } from './team-support.js';

const FIXTURE = new URL('./fixtures/response-cache.yaml', import.meta.url).pathname;
const KEY_A = 'sk-cache-a-0123456789abcdef';
const KEY_B = 'sk-cache-b-fedcba9876543210';
const ADMIN = 'sk-cache-admin-00112233445566';

const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user', content }],
  ...extra,
});

const deltas = (text: string) =>
  sseData(text)
    .filter((data) => data !== '[DONE]')
    .map(
      (data) =>
        (data as { choices?: { delta: { content?: string } }[] }).choices?.[0]?.delta.content,
    )
    .filter((piece) => piece);

describe('the response cache through the gateway', () => {
  const env = useFakeGateway((fake) => ({
    config: FIXTURE,
    env: { FAKE_BASE_URL: fake.openaiBaseURL, FAKE_API_KEY: KEYS.upstream, KEY_A, KEY_B, ADMIN },
  }));

  let question = 0;
  /** A question no other test asked, so each test starts from an empty cache for it. */
  const fresh = (text = 'hello there') => `${text} #${++question}`;

  async function chat(
    body: Record<string, unknown>,
    key = KEY_A,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${env.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
      body: JSON.stringify({ model: 'auto', ...body }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text };
  }

  it('answers the same request twice with one provider call: miss, then hit at no cost', async () => {
    const before = env.fake.requests.count();
    const body = ask(fresh());
    const first = await chat(body);
    const second = await chat(body);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-model-router-cache')).toBe('miss');
    expect(second.headers.get('x-model-router-cache')).toBe('hit');
    expect(env.fake.requests.count() - before).toBe(1);
    const [a, b] = [JSON.parse(first.text), JSON.parse(second.text)];
    expect(b.choices[0].message.content).toBe(a.choices[0].message.content);
    expect(Number(first.headers.get('x-model-router-cost'))).toBeGreaterThan(0);
    expect(Number(second.headers.get('x-model-router-cost'))).toBe(0);
    // no key of the cache leaves the gateway
    expect(second.text).not.toMatch(/model_router_cache|[A-Za-z0-9_-]{43}/);
  });

  it.each([
    ['system prompt', { messages: [{ role: 'system', content: 'Be terse.' }] }],
    [
      'tool list',
      {
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      },
    ],
    ['temperature', { temperature: 0.2 }],
  ])('misses when the %s differs', async (_, change) => {
    const content = fresh();
    await chat(ask(content));
    const changed = {
      ...ask(content),
      ...change,
      messages: [
        ...((change as { messages?: unknown[] }).messages ?? []),
        { role: 'user', content },
      ],
    };
    const second = await chat(changed);
    expect(second.headers.get('x-model-router-cache')).toBe('miss');
  });

  it('keeps each API key apart unless the router shares its answers', async () => {
    const body = ask(fresh());
    await chat(body, KEY_A);
    expect((await chat(body, KEY_B)).headers.get('x-model-router-cache')).toBe('miss');
    const shared = { ...ask(fresh()), model: 'shared' };
    await chat(shared, KEY_A);
    expect((await chat(shared, KEY_B)).headers.get('x-model-router-cache')).toBe('hit');
  });

  it('honours Cache-Control: no-cache stores without looking, no-store does neither', async () => {
    const body = ask(fresh());
    expect(
      (await chat(body, KEY_A, { 'cache-control': 'no-store' })).headers.get(
        'x-model-router-cache',
      ),
    ).toBe('bypass');
    expect(
      (await chat(body, KEY_A, { 'cache-control': 'no-cache' })).headers.get(
        'x-model-router-cache',
      ),
    ).toBe('bypass');
    expect((await chat(body)).headers.get('x-model-router-cache')).toBe('hit');
  });

  it('says nothing on a router with the cache off', async () => {
    const body = { ...ask(fresh()), model: 'uncached' };
    await chat(body);
    expect((await chat(body)).headers.get('x-model-router-cache')).toBeNull();
  });

  it('replays a streamed answer as SSE with the same text and chunking, ending in [DONE]', async () => {
    const body = { ...ask(fresh('tell me a story')), model: 'streamed', stream: true };
    const before = env.fake.requests.count();
    const first = await chat(body);
    const second = await chat(body);
    expect(first.headers.get('x-model-router-cache')).toBe('miss');
    expect(second.headers.get('x-model-router-cache')).toBe('hit');
    expect(env.fake.requests.count() - before).toBe(1);
    expect(deltas(second.text)).toEqual(deltas(first.text));
    expect(deltas(second.text).length).toBeGreaterThan(1);
    expect(sseData(second.text).at(-1)).toBe('[DONE]');
    // and a plain request is served from the streamed answer
    const plain = await chat({ ...body, stream: false });
    expect(plain.headers.get('x-model-router-cache')).toBe('hit');
    expect(JSON.parse(plain.text).choices[0].message.content).toBe(deltas(first.text).join(''));
  });

  it('does not store a stream cut mid-answer', async () => {
    const body = { ...ask(fresh()), model: 'streamed', stream: true };
    env.fake.setFault('gpt-4o-chunky', 'fault-cut-after-2');
    let cut: Awaited<ReturnType<typeof chat>>;
    try {
      cut = await chat(body);
    } finally {
      env.fake.setFault('gpt-4o-chunky', undefined);
    }
    // the stream started (200, some text), then broke: an error event, never [DONE]
    expect(cut.status).toBe(200);
    expect(deltas(cut.text).length).toBeGreaterThan(0);
    expect(cut.text).not.toContain('[DONE]');
    // stored, it would be a hit even while the broken model cools down
    expect((await chat(body)).headers.get('x-model-router-cache')).toBe('miss');
  });

  it('serves a paraphrase from the cache by meaning, but not a negation or another country', async () => {
    const semantic = (content: string) => chat({ ...ask(content), model: 'semantic' });
    expect(
      (await semantic('What is the capital of France?')).headers.get('x-model-router-cache'),
    ).toBe('miss');
    const paraphrase = await semantic("what's the capital city of France");
    expect(paraphrase.headers.get('x-model-router-cache')).toBe('semantic-hit');
    expect(
      Number(paraphrase.headers.get('x-model-router-cache-similarity')),
    ).toBeGreaterThanOrEqual(0.8);
    expect(
      (await semantic('Is Paris not the capital of France?')).headers.get('x-model-router-cache'),
    ).toBe('miss');
    expect(
      (await semantic('What is the capital of Germany?')).headers.get('x-model-router-cache'),
    ).toBe('miss');
  });

  it('counts hits, misses and the cost saved in the metrics', async () => {
    const body = ask(fresh());
    await chat(body);
    await chat(body);
    const metrics = await (
      await fetch(`${env.gateway.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })
    ).text();
    const sample = (pattern: RegExp) => Number(pattern.exec(metrics)?.[1] ?? Number.NaN);
    expect(sample(/cache_lookups_total\{router="auto",outcome="hit"\} (\S+)/)).toBeGreaterThan(0);
    expect(sample(/cache_lookups_total\{router="auto",outcome="miss"\} (\S+)/)).toBeGreaterThan(0);
    expect(sample(/cache_saved_usd_total\{router="auto"\} (\S+)/)).toBeGreaterThan(0);
  });

  it('shows the hit rate on the status report, to an admin key only', async () => {
    const body = ask(fresh());
    await chat(body);
    await chat(body);
    const read = (key: string) =>
      fetch(`${env.gateway.url}/router/status`, { headers: { authorization: `Bearer ${key}` } });
    expect((await read(KEY_A)).status).toBe(403);
    const report = (await (await read(ADMIN)).json()) as {
      cache?: { hits: number; misses: number; hitRate: number; store: string };
    };
    expect(report.cache).toMatchObject({ store: 'memory' });
    expect(report.cache!.hits).toBeGreaterThan(0);
    expect(report.cache!.misses).toBeGreaterThan(0);
    expect(report.cache!.hitRate).toBeGreaterThan(0);
    expect(report.cache!.hitRate).toBeLessThan(1);
  });

  it('serves a request too large to cache, and stores nothing of it', async () => {
    const body = ask(`${fresh()} ${'word '.repeat(60_000)}`);
    const first = await chat(body);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-model-router-cache')).toBe('bypass');
    expect((await chat(body)).headers.get('x-model-router-cache')).toBe('bypass');
  });

  it('says the same on the Responses surface', async () => {
    const input = fresh();
    const post = () =>
      fetch(`${env.gateway.url}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY_A}` },
        body: JSON.stringify({ model: 'auto', input }),
      });
    expect((await post()).headers.get('x-model-router-cache')).toBe('miss');
    expect((await post()).headers.get('x-model-router-cache')).toBe('hit');
  });
});
