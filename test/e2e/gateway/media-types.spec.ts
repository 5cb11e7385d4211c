import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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
