import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { startGateway, user, type RunningGateway } from './gateway-harness.js';

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ config: demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }) });
});

afterAll(() => gateway.close());

const body = JSON.stringify({ model: 'auto', messages: [user('hi')] });

async function post(path: string, contentType: string | undefined, payload: string) {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    body: payload,
  });
  return { status: response.status, body: (await response.json()) as { error: { code: unknown } } };
}

/** Issue 12, point 13: the README said 415 for bodies that are not JSON; the code said 400. */
describe('a body that is not JSON', () => {
  it.each([
    ['text/plain', body],
    ['application/x-www-form-urlencoded', 'model=auto&messages=hi'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\nhi\r\n--x--'],
    ['application/xml', '<chat/>'],
  ])('sent as %s is answered 415 on both chat endpoints', async (contentType, payload) => {
    for (const path of ['/v1/chat/completions', '/chat']) {
      const answer = await post(path, contentType, payload);
      expect(answer.status).toBe(415);
      expect(answer.body.error.code).toBe('unsupported_media_type');
    }
  });

  it('is still JSON when the type has a charset', async () => {
    const answer = await post('/v1/chat/completions', 'application/json; charset=utf-8', body);
    expect(answer.status).toBe(200);
  });

  it('that is JSON but not an object is a 400', async () => {
    const answer = await post('/chat', 'application/json', '"hello"');
    expect(answer.status).toBe(400);
  });
});

/** A body in a coding the gateway does not decode: refused before it is read, never parsed. */
describe('a compressed body', () => {
  it.each([
    ['/router/feedback', 'gzip'],
    ['/v1/embeddings', 'br'],
    ['/v1/messages', 'gzip'],
  ])('a body to %s with Content-Encoding: %s is a 415 before it is read', async (path, coding) => {
    // malformed JSON: a body that was parsed would be a 400
    const answer = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
      body: '{"unread": ',
    });
    const refusal = (await answer.json()) as Record<string, unknown>;

    expect(answer.status).toBe(415);
    expect(answer.headers.get('connection')).toBe('close');
    expect(JSON.stringify(refusal)).toContain(`Content-Encoding: ${coding} is not supported`);
    expect(refusal).toEqual(
      path === '/v1/messages'
        ? { type: 'error', error: { type: expect.any(String), message: expect.any(String) } }
        : { error: expect.objectContaining({ code: 'unsupported_content_encoding' }) },
    );
  });

  it('Transfer-Encoding: gzip, chunked is a 415 before the body is read', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(gateway.url);
      const chunks: Buffer[] = [];
      const socket = connect(Number(port), hostname, () =>
        socket.write(
          'POST /v1/embeddings HTTP/1.1\r\nhost: localhost\r\n' +
            'content-type: application/json\r\ntransfer-encoding: gzip, chunked\r\n\r\n' +
            '2\r\n{"\r\n0\r\n\r\n',
        ),
      );
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });

    expect(answer).toMatch(/^HTTP\/1\.1 415 /);
    expect(answer).toContain('"code":"unsupported_transfer_encoding"');
    expect(answer).toContain('Transfer-Encoding: gzip is not supported');
  });

  it('Content-Encoding: identity is no coding: the body is served', async () => {
    const answer = await fetch(`${gateway.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: JSON.stringify({ model: 'demo-embedding', input: 'hello' }),
    });

    expect(answer.status).toBe(200);
  });
});
