import 'reflect-metadata';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { DEFAULT_BODY_LIMIT } from '../../../apps/gateway/src/create-gateway-app.js';
import { startGateway, type RunningGateway } from './gateway-harness.js';
import { KEYS, TEAM_FIXTURE, teamEnv, useFakeGateway } from './team-support.js';

/** The body the trial sent: 19.5 MB of JSON, announced by its Content-Length. */
const BIG_BODY_BYTES = 19.5 * 1024 * 1024;

/**
 * Sends the headers and only the first 64 KB of a body of `total` bytes, and resolves with the
 * answer if the server gives one while the rest is still unsent (it never is).
 */
function answerBeforeBodyEnds(
  url: string,
  path: string,
  headers: Record<string, string>,
  total = BIG_BODY_BYTES,
): Promise<{
  status: number;
  body: string;
  bodyFinished: boolean;
  headers: IncomingMessage['headers'];
}> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(total), ...headers },
    });
    request.on('response', (response) => {
      const bodyFinished = request.writableFinished;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          bodyFinished,
          headers: response.headers,
        });
        request.destroy();
      });
    });
    // the server closes the connection after answering: a reset after the answer is expected
    request.on('error', (error) => {
      if (!request.destroyed || !('code' in error)) reject(error);
    });
    request.write(`{"model":"auto","messages":[{"role":"user","content":"${'a'.repeat(64 * 1024)}`);
  });
}

describe('cheap refusals (issue 24, point 7)', () => {
  const team = useFakeGateway();

  describe('with auth, the key is checked before the body is read', () => {
    it.each([
      ['no key', {}, /didn't provide an API key/],
      [
        'a wrong key',
        { authorization: 'Bearer sk-not-a-key-of-this-gateway' },
        /Incorrect API key/,
      ],
    ])('%s: 401 while 19.5 MB of body are still unsent', async (_case, headers, message) => {
      const answer = await answerBeforeBodyEnds(team.gateway.url, '/v1/chat/completions', headers);
      expect(answer.status).toBe(401);
      expect(answer.bodyFinished).toBe(false);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
      const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_api_key');
      expect(body.error.message).toMatch(message);
      expect(answer.body).not.toContain('sk-not-a-key');
    });

    it('answers the Messages endpoint in Anthropic’s shape', async () => {
      const answer = await answerBeforeBodyEnds(team.gateway.url, '/v1/messages', {});
      expect(answer.status).toBe(401);
      expect(answer.bodyFinished).toBe(false);
      expect(JSON.parse(answer.body)).toMatchObject({
        type: 'error',
        error: { type: 'authentication_error' },
      });
    });

    it('every body-taking surface refuses before reading', async () => {
      for (const path of ['/v1/responses', '/v1/embeddings', '/chat']) {
        const answer = await answerBeforeBodyEnds(team.gateway.url, path, {});
        expect([path, answer.status, answer.bodyFinished]).toEqual([path, 401, false]);
      }
      expect(team.fake.requests.all()).toHaveLength(0);
    });

    it('a valid key still has its body read and served', async () => {
      const answer = await fetch(`${team.gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEYS.teamA}` },
        body: JSON.stringify({ model: 'auto', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(answer.status).toBe(200);
    });

    it('leaves /health open and unknown paths to their 404', async () => {
      expect((await fetch(`${team.gateway.url}/health`)).status).toBe(200);
      expect((await fetch(`${team.gateway.url}/no-such-path`)).status).toBe(404);
    });
  });
});

/** A chat request carrying an image of `imageBytes` as a base64 data URL. */
function withImage(imageBytes: number): string {
  return JSON.stringify({
    model: 'auto',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is in this picture?' },
          {
            type: 'image_url',
            image_url: { url: `data:image/png;base64,${'A'.repeat((imageBytes / 3) * 4)}` },
          },
        ],
      },
    ],
  });
}

describe('the body limit (issue 24, point 7)', () => {
  const MiB = 1024 * 1024;
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway({
      config: demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }),
      metricsRegistry: new Registry(),
    });
  });

  afterAll(() => gateway.close());

  it('is 8 MiB by default: a 5 MB image fits, a body over the limit is 413 before it is read', async () => {
    expect(DEFAULT_BODY_LIMIT).toBe(8 * MiB);
    const image = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: withImage(5 * 1000 * 1000 - 2),
    });
    expect(image.status).toBe(200);
    const over = await answerBeforeBodyEnds(gateway.url, '/v1/chat/completions', {}, 8 * MiB + 1);
    expect(over.status).toBe(413);
    expect(over.bodyFinished).toBe(false);
    expect(JSON.parse(over.body)).toMatchObject({
      error: { message: 'Request body is too large', type: 'invalid_request_error' },
    });
  });

  it('is configurable, by option or by MODEL_ROUTER_BODY_LIMIT', async () => {
    const small = await startGateway({
      config: demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }),
      env: { MODEL_ROUTER_BODY_LIMIT: String(64 * 1024) },
      metricsRegistry: new Registry(),
    });
    try {
      const post = (body: string) =>
        fetch(`${small.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
      expect((await post(withImage(30_000))).status).toBe(200);
      expect((await post(withImage(60_000))).status).toBe(413);
    } finally {
      await small.close();
    }
    await expect(
      startGateway({ config: demoGatewayConfig(), env: { MODEL_ROUTER_BODY_LIMIT: 'lots' } }),
    ).rejects.toThrow(/MODEL_ROUTER_BODY_LIMIT.*whole number of bytes/);
  });
});

describe('model names no response header can carry (issue 24, point 7)', () => {
  const team = useFakeGateway((fake) => ({
    config: TEAM_FIXTURE,
    env: teamEnv(fake),
    metricsRegistry: new Registry(),
  }));

  const bodies: Record<string, (model: string, models?: string[]) => unknown> = {
    '/v1/chat/completions': (model, models) => ({
      model,
      models,
      messages: [{ role: 'user', content: 'hi' }],
    }),
    '/v1/responses': (model, models) => ({ model, models, input: 'hi' }),
    '/v1/messages': (model, models) => ({
      model,
      models,
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    }),
    '/v1/embeddings': (model, models) => ({ model, models, input: 'hi' }),
  };
  const names = {
    'a CR LF': 'fake/gpt-4o\r\nx-evil: 1',
    'an emoji': 'fake/😀',
    'a C1 control character': 'fake/gpt-4o\u0085',
    '257 characters': `fake/${'a'.repeat(252)}`,
  };
  const cases = Object.keys(bodies).flatMap((path) =>
    Object.entries(names).map(([what, name]) => [path, what, name] as const),
  );

  it.each(cases)('%s refuses %s with a 400 before any provider call', async (path, _what, name) => {
    for (const [body, param] of [
      [bodies[path]!(name), 'model'],
      [bodies[path]!('fake/gpt-4o-mini', [name]), 'models.0'],
    ] as const) {
      const answer = await fetch(`${team.gateway.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEYS.teamB}` },
        body: JSON.stringify(body),
      });
      const text = await answer.text();
      expect([param, answer.status]).toEqual([param, 400]);
      expect(text).toMatch(/at most 256 characters|printable Latin-1/);
      expect(answer.headers.get('x-evil')).toBeNull();
      if (path !== '/v1/messages') {
        expect((JSON.parse(text) as { error: { param: string } }).error.param).toBe(param);
      }
    }
    expect(team.fake.requests.all()).toHaveLength(0);
  });

  it('serves a name of 256 printable characters, Latin-1 percent-encoded in the header', async () => {
    const name = `fake/gpt-4o-${'é'.repeat(244)}`;
    expect(name).toHaveLength(256);
    const answer = await fetch(`${team.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEYS.teamB}` },
      body: JSON.stringify(bodies['/v1/chat/completions']!(name)),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-model-router-model')).toBe(`fake/gpt-4o-${'%C3%A9'.repeat(244)}`);
  });
});

describe('error texts name only what the key may use (issue 24, point 7)', () => {
  const FIXTURE = new URL('./fixtures/scoped-errors.yaml', import.meta.url).pathname;
  /** Names only other keys (or no key) may learn of. */
  const HIDDEN = /internal|\bpro\b|secretlab|apiKey|serves only/;
  const team = useFakeGateway((fake) => ({
    config: FIXTURE,
    env: teamEnv(fake),
    metricsRegistry: new Registry(),
  }));

  const ask = async (path: string, body: Record<string, unknown>) => {
    const answer = await fetch(`${team.gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEYS.teamA}` },
      body: JSON.stringify({ max_tokens: 16, ...body }),
    });
    return { status: answer.status, text: await answer.text() };
  };
  const chatLike = {
    '/v1/chat/completions': { messages: [{ role: 'user', content: 'hi' }] },
    '/v1/responses': { input: 'hi' },
    '/v1/messages': { messages: [{ role: 'user', content: 'hi' }] },
  };

  it.each(Object.entries(chatLike))(
    '%s: an unknown name or a disabled provider lists only the key’s names',
    async (path, body) => {
      for (const model of ['nope', 'secretlab/gpt-4o']) {
        const answer = await ask(path, { ...body, model });
        expect([model, answer.status]).toEqual([model, 404]);
        expect(answer.text).toContain('auto, mini, fake/<model-id>');
        expect(answer.text.replace(model, '')).not.toMatch(HIDDEN);
      }
    },
  );

  it('/v1/embeddings: the same, and scope is checked before a provider’s allow-list', async () => {
    for (const model of ['nope', 'secretlab/text-embedding-3-small']) {
      const answer = await ask('/v1/embeddings', { model, input: 'hi' });
      expect([model, answer.status]).toEqual([model, 404]);
      expect(answer.text).toContain('Use one of: fake/<embedding-model-id>;');
      expect(answer.text.replace(model, '')).not.toMatch(HIDDEN);
    }
    const outside = await ask('/v1/embeddings', { model: 'fake/text-embedding-3', input: 'hi' });
    expect(outside.status).toBe(403);
    expect(outside.text).not.toMatch(HIDDEN);
  });

  it('a router outside the scope, used as a failover list member, is a 403, not described', async () => {
    for (const body of [
      { model: 'internal', models: ['mini'] },
      { model: 'mini', models: ['internal'] },
    ]) {
      const answer = await ask('/v1/chat/completions', {
        ...chatLike['/v1/chat/completions'],
        ...body,
      });
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('model_not_allowed');
      expect(answer.text).not.toContain('failover list takes model names');
    }
    expect(team.fake.requests.all()).toHaveLength(0);
  });
});
