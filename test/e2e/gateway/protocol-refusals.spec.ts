// Answers Node and Fastify used to write themselves, outside the API's error shape (an empty
// 400, an empty 417, CORS's plain text, a silently closed socket), each over real HTTP on one
// gateway with `auth` and `cors`: every refusal is JSON in the dialect of its path.
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { ManualClock, startGateway, type RunningGateway } from './gateway-harness.js';
import { raw } from './raw-connection.js';

const KEY = 'sk-protocol-refusals-0123456789';
/** A client key allowed one model call a minute. */
const ONE_RPM_KEY = 'sk-protocol-refusals-one-rpm-0123456789';
const ORIGIN = 'https://chat.example.com';

/** The status, headers (lower-cased names) and JSON body of one raw answer. */
function parsed(answer: string): { status: number; head: string; body: unknown } {
  const [head = '', ...rest] = answer.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    head: head.toLowerCase(),
    body: JSON.parse(rest.join('\r\n\r\n')),
  };
}

/** The head of a POST that waits for 100 Continue before sending its body. */
const expecting = (path: string, authorization: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nhost: localhost\r\n${authorization}content-type: application/json\r\n` +
  `content-length: ${length}\r\nexpect: 100-continue\r\n\r\n`;

const openAiError = (code: string) => ({
  error: { message: expect.any(String), type: 'invalid_request_error', param: null, code },
});
const anthropicError = {
  type: 'error',
  error: { type: expect.any(String), message: expect.any(String) },
};

describe('what Node and Fastify refuse on their own, with auth and cors', () => {
  let gateway: RunningGateway;
  const clock = new ManualClock();
  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${gateway.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${KEY}`, ...(init.headers as Record<string, string>) },
    });

  beforeAll(async () => {
    gateway = await startGateway({
      // the rpm window stays the same minute whatever the tests take
      clock: clock.read,
      bodyLimit: 64 * 1024,
      config: {
        ...demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }),
        auth: {
          keys: [
            { name: 'team', key: KEY },
            { name: 'one-rpm', key: ONE_RPM_KEY, rpm: 1 },
          ],
        },
        cors: { origins: [ORIGIN] },
      },
    });
  });

  afterAll(() => gateway.close());

  it.each([
    ['/v1/models', openAiError('missing_host_header')],
    ['/v1/messages', anthropicError],
  ])('an HTTP/1.1 request without Host, on %s: 400, not an empty body', async (path, shape) => {
    const answer = parsed(
      await raw(
        gateway.url,
        `POST ${path} HTTP/1.1\r\nauthorization: Bearer ${KEY}\r\ncontent-type: application/json\r\n` +
          'content-length: 2\r\nconnection: close\r\n\r\n{}',
      ),
    );

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(shape);
    expect(JSON.stringify(answer.body)).toContain('Host header');
  });

  it.each([
    ['http://evil.example/v1/models', 403],
    ['http://127.0.0.1:1/v1/models', 200],
  ])(
    'an absolute-form target %s on loopback: its host counts, not Host (%i)',
    async (target, status) => {
      const answer = parsed(
        await raw(
          gateway.url,
          `GET ${target} HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${KEY}\r\n` +
            'connection: close\r\n\r\n',
        ),
      );

      expect(answer.status).toBe(status);
      if (status === 403) expect(answer.body).toEqual(openAiError('host_not_allowed'));
    },
  );

  it('an HTTP/1.0 request without Host, on loopback: 403 saying it has none', async () => {
    const answer = parsed(
      await raw(gateway.url, `GET /v1/models HTTP/1.0\r\nauthorization: Bearer ${KEY}\r\n\r\n`),
    );

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(openAiError('host_not_allowed'));
    expect(JSON.stringify(answer.body)).toContain('this request has no Host header');
  });

  it.each([
    ['/v1/chat/completions', 'without Origin', {}, openAiError('invalid_preflight_request')],
    ['/v1/messages', 'without Origin', {}, anthropicError],
    [
      '/v1/models',
      'without a method',
      { origin: ORIGIN },
      openAiError('invalid_preflight_request'),
    ],
  ])('OPTIONS %s %s: a JSON 400, not CORS’s plain text', async (path, _case, headers, shape) => {
    const answer = await fetch(`${gateway.url}${path}`, { method: 'OPTIONS', headers });

    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(await answer.json()).toEqual(shape);
  });

  it('a real preflight from an allowed origin is still answered 204', async () => {
    const answer = await fetch(`${gateway.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    });

    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });

  it('Expect: 100-continue for a body over the limit: 413 at once, no 100 Continue', async () => {
    const text = await raw(
      gateway.url,
      `POST /v1/chat/completions HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${KEY}\r\n` +
        'content-type: application/json\r\ncontent-length: 10000000\r\nexpect: 100-continue\r\n\r\n',
    );

    expect(text).not.toContain('100 Continue');
    expect(parsed(text).status).toBe(413);
  });

  it.each([
    [
      'an unserved path, bad key',
      '/v1/messages/count_tokens',
      'x-api-key: sk-wrong\r\n',
      404,
      anthropicError,
    ],
    [
      'a bad key',
      '/v1/chat/completions',
      'authorization: Bearer sk-wrong\r\n',
      401,
      openAiError('invalid_api_key'),
    ],
    ['no key', '/v1/messages', '', 401, anthropicError],
  ])(
    'Expect: 100-continue with %s: refused as without Expect, no 100 Continue',
    async (_case, path, authorization, status, shape) => {
      const text = await raw(gateway.url, expecting(path, authorization, 1000));

      expect(text).not.toContain('100 Continue');
      expect(parsed(text).status).toBe(status);
      expect(parsed(text).body).toEqual(shape);
    },
  );

  it.each([
    [
      'a text/plain body',
      '/v1/chat/completions',
      'text/plain',
      415,
      openAiError('unsupported_media_type'),
    ],
    ['a form body', '/v1/messages', 'application/x-www-form-urlencoded', 415, anthropicError],
    ['no content-type', '/v1/embeddings', undefined, 415, openAiError('unsupported_media_type')],
  ])(
    'Expect: 100-continue with %s: 415 at once, no 100 Continue, the connection closed',
    async (_case, path, contentType, status, shape) => {
      const head = expecting(path, `authorization: Bearer ${KEY}\r\n`, 1000);
      const text = await raw(
        gateway.url,
        contentType === undefined
          ? head.replace('content-type: application/json\r\n', '')
          : head.replace('application/json', contentType),
      );

      expect(text).not.toContain('100 Continue');
      expect(parsed(text).status).toBe(status);
      expect(parsed(text).body).toEqual(shape);
    },
  );

  it('Expect: 100-continue from a client key on an admin path: 403 at once, no 100 Continue', async () => {
    const text = await raw(
      gateway.url,
      expecting('/router/status', `authorization: Bearer ${KEY}\r\n`, 1000).replace('POST', 'GET'),
    );

    expect(text).not.toContain('100 Continue');
    expect(parsed(text).status).toBe(403);
    expect(parsed(text).body).toEqual({
      error: expect.objectContaining({ type: 'permission_error', code: 'admin_key_required' }),
    });
  });

  it('Expect: 100-continue once the key’s rpm is used up: the guard’s 429 at once, no 100 Continue', async () => {
    const body = JSON.stringify({ decision: 'dec_unknown', route: 'x' });
    const first = await fetch(`${gateway.url}/router/feedback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ONE_RPM_KEY}`, 'content-type': 'application/json' },
      body,
    });
    expect(first.status).not.toBe(429);

    const [withoutExpect, withExpect] = [
      await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': ONE_RPM_KEY, 'content-type': 'application/json' },
        body: '{}',
      }),
      await raw(gateway.url, expecting('/v1/messages', `x-api-key: ${ONE_RPM_KEY}\r\n`, 1000)),
    ];
    const early = parsed(withExpect);

    expect(withExpect).not.toContain('100 Continue');
    expect(early.status).toBe(429);
    expect(early.head).toContain('x-ratelimit-remaining-requests: 0');
    expect(early.head).toMatch(/retry-after: \d+/);
    expect(early.body).toEqual(await withoutExpect.json());
    expect(early.body).toEqual({
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message: expect.stringContaining('1 requests per minute'),
      },
    });
  });

  it('Expect: 100-continue to /router/feedback once the key’s feedback is used up: 429 at once', async () => {
    const body = JSON.stringify({ decision: 'dec_unknown', route: 'x' });
    let status = 0;
    for (let i = 0; status !== 429 && i < 100; i += 1) {
      const answer = await send('/router/feedback', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      status = answer.status;
    }
    expect(status).toBe(429);

    const text = await raw(
      gateway.url,
      expecting('/router/feedback', `authorization: Bearer ${KEY}\r\n`, 1000),
    );

    expect(text).not.toContain('100 Continue');
    expect(parsed(text).status).toBe(429);
    expect(parsed(text).body).toEqual({
      error: expect.objectContaining({
        message: expect.stringContaining('Too much feedback from this key'),
        code: 'rate_limit_exceeded',
      }),
    });
  });

  it('Expect: 100-continue with a good key: 100 Continue, then the body is read and answered', async () => {
    const body = JSON.stringify({
      model: 'demo-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const { hostname, port } = new URL(gateway.url);
    const text = await new Promise<string>((resolve, reject) => {
      let answer = '';
      const socket = connect(Number(port), hostname, () =>
        socket.write(
          expecting(
            '/v1/chat/completions',
            `authorization: Bearer ${KEY}\r\nconnection: close\r\n`,
            Buffer.byteLength(body),
          ),
        ),
      );
      socket.on('data', (chunk: Buffer) => {
        if (answer === '' && chunk.toString('utf8').startsWith('HTTP/1.1 100 Continue'))
          socket.write(body);
        answer += chunk.toString('utf8');
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
    });

    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it('an Expect the gateway does not know: 417 in JSON', async () => {
    const answer = parsed(
      await raw(
        gateway.url,
        'GET /v1/models HTTP/1.1\r\nhost: localhost\r\nexpect: 200-ok\r\nconnection: close\r\n\r\n',
      ),
    );

    expect(answer.status).toBe(417);
    expect(answer.body).toEqual(openAiError('expectation_failed'));
  });

  it('CONNECT: 405 in JSON, not a silently closed socket', async () => {
    const answer = parsed(
      await raw(gateway.url, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nhost: 127.0.0.1:22\r\n\r\n'),
    );

    expect(answer.status).toBe(405);
    expect(answer.body).toEqual(openAiError('method_not_allowed'));
  });

  it.each([
    ['GET', '/v1/messages'],
    ['POST', '/v1/messages/count_tokens'],
  ])('%s %s, not served, is a 404 in Anthropic’s shape', async (method, path) => {
    const answer = await send(path, {
      method,
      ...(method === 'POST'
        ? { headers: { 'content-type': 'application/json' }, body: '{"unread": ' }
        : {}),
    });

    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({
      type: 'error',
      error: {
        type: 'not_found_error',
        message: expect.stringMatching(`^Cannot ${method} ${path}: `),
      },
    });
  });
});
