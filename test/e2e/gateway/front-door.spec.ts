// What an attacker's pass over every endpoint found, each case over real HTTP on one gateway with
// `auth`: error texts that quoted a URL's query string (where keys get pasted), the Messages
// surface answering Fastify's refusals in OpenAI's shape, client aborts on every surface, keys
// echoed as request ids, and bodies whose parsing alone took seconds. What Node and Fastify
// answer before the gateway is in protocol-refusals.spec.ts.
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { startGateway, user, type RunningGateway } from './gateway-harness.js';
import { abortedOf, WatchedProvider } from './watched-provider.js';

const KEY = 'sk-front-door-0123456789-canary';
const FAKE_KEY = 'fake-upstream-key-front-door';

describe('the front door, with auth', () => {
  const watched = new WatchedProvider();
  const providerSignals = watched.signals;
  let fake: FakeProvider;
  let gateway: RunningGateway;
  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${gateway.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${KEY}`, ...(init.headers as Record<string, string>) },
    });
  const messages = (body: string, contentType = 'application/json') =>
    send('/v1/messages', {
      method: 'POST',
      headers: { 'content-type': contentType, 'anthropic-version': '2023-06-01' },
      body,
    });

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: FAKE_KEY });
    const demo = demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 });
    gateway = await startGateway({
      bodyLimit: 64 * 1024,
      config: {
        ...demo,
        auth: { keys: [{ name: 'team', key: KEY, providerModels: true }] },
        secrets: [KEY],
        providers: {
          watched: watched.models(fake, FAKE_KEY),
        },
      },
    });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  describe('error texts quote the path, never the query string nor 16 KiB of it', () => {
    it.each([
      ['a malformed URL (400)', '/v1/models/%ZZ', 400],
      ['an unknown path (404)', '/v2/nothing', 404],
      ['an unknown model (404)', '/v1/models/nothing', 404],
    ])('%s', async (_case, path, status) => {
      const answer = await send(`${path}?api_key=${KEY}&key=pasted-by-mistake`);
      const text = await answer.text();

      expect(answer.status).toBe(status);
      expect(text).not.toContain('?api_key');
      expect(text).not.toContain('canary');
      expect(text).not.toContain('pasted-by-mistake');
      expect(text).toContain(path.split('/').pop());
    });

    it('the root, where a browser lands, says where the API and the status page are', async () => {
      const answer = await send('/?utm_source=x');
      const { error } = (await answer.json()) as { error: { message: string } };

      expect(answer.status).toBe(404);
      expect(error.message).toBe(
        'Cannot GET /: this is an OpenAI-compatible API under /v1 (GET /v1/models lists what it ' +
          'serves); open /status in a browser for the live status page',
      );
    });

    it('a path segment over the router’s limit (414) is quoted in 200 characters', async () => {
      const answer = await send(`/v1/models/${'m'.repeat(12_000)}?api_key=${KEY}`);
      const { error } = (await answer.json()) as { error: { message: string; code: string } };

      expect(answer.status).toBe(414);
      expect(error.code).toBe('fst_err_max_param_length');
      expect(error.message.length).toBeLessThan(400);
      expect(error.message).toContain('more characters');
      expect(error.message).not.toContain('canary');
    });
  });

  it.each([
    ['/v1/models', 'GET'],
    ['/v1/chat/completions', 'POST'],
  ])(
    'a key in the query of %s is not read, and the 401 says where it goes',
    async (path, method) => {
      const answer = await fetch(`${gateway.url}${path}?api_key=${KEY}`, {
        method,
        ...(method === 'POST'
          ? { headers: { 'content-type': 'application/json' }, body: '{}' }
          : {}),
      });
      const text = await answer.text();

      expect(answer.status).toBe(401);
      expect(text).toContain('A key in the URL is not read');
      expect(text).not.toContain('canary');
    },
  );

  it.each([
    ['over 256 characters', `/v1/models/watched/${'m'.repeat(3000)}`, 'at most 256 characters'],
    ['with a control character', '/v1/models/watched/a%0d%0ab', 'without control characters'],
  ])(
    'GET /v1/models/:id refuses an id %s with 400, as a body’s model',
    async (_case, path, says) => {
      const answer = await send(path);
      const text = await answer.text();

      expect(answer.status).toBe(400);
      expect(text).toContain(says);
      expect(text.length).toBeLessThan(600);
    },
  );

  it.each(['DELETE /health', 'OPTIONS /router/feedback', 'PATCH /v1/models'])(
    '%s with a JSON Content-Type and no body is a 404, not a 400 about the empty body',
    async (request) => {
      const [method = '', path = ''] = request.split(' ');
      const answer = await send(path, {
        method,
        headers: { 'content-type': 'application/json' },
      });

      expect(answer.status).toBe(404);
      // the message names the method the path takes (the newcomer's hint)
      expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(
        new RegExp(`^Cannot ${method} ${path}: it takes (GET|POST)$`),
      );
    },
  );

  it.each([
    ['POST', '/nope'],
    ['DELETE', '/v1/models'],
    ['PUT', '/v1/chat/completions'],
  ])('%s %s, not served, is a 404 before its body is read', async (method, path) => {
    // malformed JSON: a body that was parsed would be a 400
    const answer = await fetch(`${gateway.url}${path}?api_key=x`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: '{"unread": ',
    });

    expect(answer.status).toBe(404);
    expect(answer.headers.get('connection')).toBe('close');
    expect(await answer.json()).toEqual({
      error: {
        // under /v1, the method the path takes
        message: expect.stringMatching(`^Cannot ${method} ${path}(: it takes (GET|POST))?$`),
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
  });

  describe('names a client chose, bounded as model names are (256 characters)', () => {
    const long = 'n'.repeat(300);
    const tools = {
      '/v1/chat/completions': {
        messages: [user('hi')],
        tools: [{ type: 'function', function: { name: long, parameters: { type: 'object' } } }],
      },
      '/v1/responses': {
        input: 'hi',
        tools: [{ type: 'function', name: long, parameters: { type: 'object' } }],
      },
      '/v1/messages': {
        max_tokens: 100,
        messages: [user('hi')],
        tools: [{ name: long, input_schema: { type: 'object' } }],
      },
    };

    it.each(Object.entries(tools))(
      'a tool name over the bound is a 400 on %s, not an answer that repeats it',
      async (path, body) => {
        const answer = await send(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'demo-mini', ...body }),
        });
        const text = await answer.text();

        expect(answer.status).toBe(400);
        expect(text).toContain('at most 256 characters');
        expect(text).not.toContain(long);
      },
    );

    it('a router name over the bound on POST /chat is a 400 that does not quote it', async () => {
      const answer = await send('/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ router: long, messages: [user('hi')] }),
      });
      const text = await answer.text();

      expect(answer.status).toBe(400);
      expect(text).toContain('router must be at most 256 characters');
      expect(text).not.toContain(long);
    });
  });

  it.each([
    ['/v1/messages', { max_tokens: 16, messages: [user('What is the capital of France?')] }],
    ['/v1/responses', { input: 'What is the capital of France?' }],
  ])(
    '%s takes models: [] as no fallback list, as /v1/chat/completions does',
    async (path, body) => {
      const answer = await send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'demo-mini', models: [], ...body }),
      });

      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-model-router-model')).toBe('demo-mini');
    },
  );

  it('/v1/embeddings takes models: [] as no fallback list too', async () => {
    const answer = await send('/v1/embeddings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo-embedding', models: [], input: 'hello' }),
    });

    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { model: string; data: { embedding: number[] }[] };
    expect(body.model).toBe('demo-embedding');
    expect(body.data[0]!.embedding.length).toBeGreaterThan(0);
  });

  describe('POST /v1/messages refused before its controller runs', () => {
    it.each([
      ['malformed JSON', () => messages('{"model": '), 400, 'invalid_request_error'],
      ['a text body', () => messages('hello', 'text/plain'), 415, 'invalid_request_error'],
      [
        'a body over the limit',
        () => messages(`"${'x'.repeat(70_000)}"`),
        413,
        'request_too_large',
      ],
    ])('%s is answered in Anthropic’s error shape', async (_case, ask, status, type) => {
      const answer = await ask();
      const body = (await answer.json()) as { type: string; error: { type: string } };

      expect(answer.status).toBe(status);
      expect(body).toMatchObject({ type: 'error', error: { type } });
    });

    it.each([
      ['{"model": ', /^Body is not valid JSON: \S.*/],
      [
        '{"model":"demo-mini","__proto__":{"admin":true}}',
        /^Body is valid JSON but holds a __proto__ key/,
      ],
    ])('%s is a 400 that says why', async (body, says) => {
      const answer = await send('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const { error } = (await answer.json()) as { error: { message: string; code: string } };

      expect(answer.status).toBe(400);
      expect(error.code).toBe('fst_err_ctp_invalid_json_body');
      expect(error.message).toMatch(says);
    });

    it('the chat surface keeps OpenAI’s shape for the same refusal', async () => {
      const answer = await send('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"model": ',
      });

      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    });
  });

  describe('a client that leaves frees the provider call', () => {
    const surfaces = [
      ['/v1/chat/completions', { messages: [user('tell me a story')] }],
      ['/v1/responses', { input: 'tell me a story' }],
      ['/v1/messages', { max_tokens: 100, messages: [user('tell me a story')] }],
    ] as const;

    it.each(surfaces)('mid-stream, on %s', async (path, body) => {
      const before = providerSignals.length;
      const controller = new AbortController();
      const answer = await send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'watched/gpt-fault-stall-after-3', stream: true, ...body }),
        signal: controller.signal,
      });
      expect(answer.status).toBe(200);
      expect((await answer.body!.getReader().read()).done).toBe(false);
      controller.abort();

      expect(providerSignals.length).toBe(before + 1);
      await abortedOf(providerSignals[before]!);
    });

    it.each(surfaces)('before a plain answer, on %s', async (path, body) => {
      const before = providerSignals.length;
      const called = watched.nextCall();
      const controller = new AbortController();
      const answer = send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'watched/gpt-fault-hang', ...body }),
        signal: controller.signal,
      }).catch((error: unknown) => error);
      await called;
      controller.abort();

      expect(await answer).toMatchObject({ name: 'AbortError' });
      await abortedOf(providerSignals[before]!);
    });
  });
  it('a key sent as x-request-id is not echoed: the answer gets a new id; a plain id is kept', async () => {
    const asKey = await send('/v1/models', { headers: { 'x-request-id': KEY } });
    const plain = await send('/v1/models', { headers: { 'x-request-id': 'trace-42' } });

    expect(asKey.status).toBe(200);
    expect(asKey.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(plain.headers.get('x-request-id')).toBe('trace-42');
  });

  it.each(['/v1/chat/completions', '/v1/messages'])(
    'a body over 16 KiB nested thousands deep is refused before it is parsed, on %s',
    async (path) => {
      // 30 KB of `[`, never closed: refused for its depth, so never parsed (parsing 8 MiB of
      // `[` took seconds of the event loop)
      const answer = await send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"model":"demo-mini","x":${'['.repeat(30_000)}`,
      });
      const { error } = (await answer.json()) as { error: { message: string } };

      expect(answer.status).toBe(400);
      expect(error.message).toMatch(
        /^Invalid request body: x(\.0){64} is nested more than 64 levels deep/,
      );
    },
  );
});
