import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import { createGatewayApp } from '../../../apps/gateway/src/create-gateway-app.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { startGateway, type RunningGateway } from './gateway-harness.js';
import { authed, chatBody, clientWith, KEYS, TEAM_FIXTURE, teamEnv } from './team-support.js';

interface WireError {
  error: { message: string; type: string; code: string | null; param: string | null };
}

describe('a gateway with auth: keys, scopes, admin endpoints', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;
  const post = (key: string | undefined, body: string, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...headers,
      },
      body,
    });

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
    gateway = await startGateway({ config: TEAM_FIXTURE, env: teamEnv(fake) });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  describe('401 invalid_api_key, as OpenAI answers it', () => {
    it.each([
      ['no key', {}],
      ['a wrong bearer key', { authorization: 'Bearer garbage' }],
      ['a wrong x-api-key', { 'x-api-key': 'sk-wrong-but-long-enough-000' }],
      ['another scheme', { authorization: `Basic ${KEYS.teamA}` }],
    ])('%s', async (_case, headers) => {
      const answer = await post(undefined, chatBody('auto'), headers);
      expect(answer.status).toBe(401);
      const body = (await answer.json()) as WireError;
      expect(body.error.code).toBe('invalid_api_key');
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toMatch(/Authorization: Bearer <key>/);
      expect(JSON.stringify(body)).not.toMatch(/garbage|sk-wrong|canary/);
      expect(fake.requests.all()).toHaveLength(0);
    });

    it('the official client sees an AuthenticationError', async () => {
      const error = await gateway.client.chat.completions
        .create({ model: 'auto', messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe(
        'invalid_api_key',
      );
    });
  });

  it('serves a key sent as a bearer token or as x-api-key', async () => {
    const completion = await clientWith(gateway.url, KEYS.teamA).chat.completions.create({
      model: 'auto',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toContain('You said: hi');
    const viaHeader = await post(undefined, chatBody('mini'), { 'x-api-key': KEYS.teamA });
    expect(viaHeader.status).toBe(200);
    // the upstream gets the operator's provider key, never the client's
    for (const request of fake.requests.all()) {
      expect(request.headers.authorization).toBe(`Bearer ${KEYS.upstream}`);
    }
  });

  describe('403 outside the key’s scope, naming what is not allowed and nothing else', () => {
    it.each([
      ['a router', 'internal', {}, "router 'internal'"],
      ['a model', 'pro', {}, "model 'pro'"],
      [
        'a provider model',
        'fake/gpt-4o-mini',
        {},
        "provider model (provider/model-id) 'fake/gpt-4o-mini'",
      ],
      ['a member of a failover list', 'mini', { models: ['pro'] }, "model 'pro'"],
    ])('%s', async (_case, model, extra, named) => {
      const answer = await post(KEYS.teamA, chatBody(model, extra));
      expect(answer.status).toBe(403);
      const body = (await answer.json()) as WireError;
      expect(body.error.code).toBe('model_not_allowed');
      expect(body.error.message).toContain(named);
      expect(body.error.message).not.toMatch(/team-b|ops/);
    });

    it('/chat checks the router too, the default one included', async () => {
      const answer = await fetch(
        `${gateway.url}/chat`,
        authed(KEYS.teamB, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ router: 'internal', messages: [{ role: 'user', content: 'x' }] }),
        }),
      );
      expect(answer.status).toBe(200); // team-b: every router
      const denied = await fetch(
        `${gateway.url}/chat`,
        authed(KEYS.teamA, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ router: 'internal', messages: [{ role: 'user', content: 'x' }] }),
        }),
      );
      expect(denied.status).toBe(403);
    });

    it('an unknown name is a 404 that lists only what the key may use', async () => {
      const answer = await post(KEYS.teamA, chatBody('nope'));
      expect(answer.status).toBe(404);
      const { error } = (await answer.json()) as WireError;
      expect(error.message).toContain('auto, mini');
      expect(error.message).not.toMatch(/internal|\bpro\b|fake\//);
    });
  });

  it('GET /v1/models lists only what the key may use', async () => {
    const ids = async (key: string) =>
      (await clientWith(gateway.url, key).models.list()).data.map((m) => m.id);
    expect(await ids(KEYS.teamA)).toEqual(['auto', 'mini']);
    // embedding models follow the key's models scope too: team-a may use only mini
    expect(await ids(KEYS.ops)).toEqual(['auto', 'internal', 'mini', 'pro', 'demo-embedding']);
    const denied = await fetch(`${gateway.url}/v1/models/pro`, authed(KEYS.teamA));
    expect(denied.status).toBe(403);
  });

  it('provider models: the key’s globs and the provider’s allow-list', async () => {
    expect((await post(KEYS.teamB, chatBody('fake/gpt-4o-mini'))).status).toBe(200);
    // allowed by the provider (tools*), not by the key
    expect((await post(KEYS.teamB, chatBody('fake/tools'))).status).toBe(403);
    // the admin key may use anything the provider serves, and no more
    expect((await post(KEYS.ops, chatBody('fake/tools'))).status).toBe(200);
    const refused = await post(KEYS.ops, chatBody('fake/o3-pro'));
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as WireError).error.message).toContain(
      "provider 'fake' serves only the models gpt-4o*, tools*",
    );
  });

  it('/metrics needs an admin key', async () => {
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(401);
    const client = await fetch(`${gateway.url}/metrics`, authed(KEYS.teamA));
    expect(client.status).toBe(403);
    expect(((await client.json()) as WireError).error.code).toBe('admin_key_required');
    const admin = await fetch(`${gateway.url}/metrics`, authed(KEYS.ops));
    expect(admin.status).toBe(200);
    expect(await admin.text()).toContain('model_router_');
  });

  it('/health: the status for anyone (load balancers), the details for an admin key', async () => {
    const plain = await fetch(`${gateway.url}/health`);
    expect(plain.status).toBe(200);
    expect(await plain.json()).toEqual({ status: 'ok' });
    const client = await fetch(`${gateway.url}/health`, authed(KEYS.teamA));
    expect(await client.json()).toEqual({ status: 'ok' });
    const admin = await fetch(`${gateway.url}/health`, authed(KEYS.ops));
    expect(Object.keys((await admin.json()) as object)).toEqual(
      expect.arrayContaining(['status', 'details']),
    );
  });

  it('GET /v1/key shows the caller’s own key: name, scope, limits, never a secret', async () => {
    const answer = await fetch(`${gateway.url}/v1/key`, authed(KEYS.teamA));
    const key = (await answer.json()) as Record<string, unknown>;
    expect(key).toEqual({
      object: 'key',
      name: 'team-a',
      admin: false,
      routers: ['auto'],
      models: ['mini'],
      providerModels: false,
      limits: { rpm: 1000, tpm: 1000000 },
      budget: {
        limitUsd: 25,
        period: '30d',
        spentUsd: expect.any(Number),
        resetsAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        state: 'ok',
      },
    });
    expect((await fetch(`${gateway.url}/v1/key`)).status).toBe(401);
  });

  it('x-request-id: honoured when plain, generated otherwise, returned on every answer', async () => {
    const sent = await post(KEYS.teamA, chatBody('auto'), { 'x-request-id': 'req-42.a' });
    expect(sent.headers.get('x-request-id')).toBe('req-42.a');
    const hostile = await post(undefined, chatBody('auto'), { 'x-request-id': 'a b;"<script>' });
    expect(hostile.status).toBe(401);
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const long = await fetch(`${gateway.url}/nowhere`, {
      headers: { 'x-request-id': 'x'.repeat(500) },
    });
    expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers no CORS headers unless configured', async () => {
    const preflight = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('where a gateway may listen', () => {
  let fake: FakeProvider;

  beforeAll(async () => {
    fake = await FakeProvider.start();
  });

  afterAll(() => fake.close());

  it('without auth, it refuses an address beyond loopback, saying how to add keys', async () => {
    const app = await createGatewayApp({
      config: new URL('./fixtures/fake-providers.yaml', import.meta.url).pathname,
      env: { FAKE_BASE_URL: fake.openaiBaseURL, FAKE_URL: fake.url, FAKE_API_KEY: 'sk-fake-0000' },
      logger: false,
    });
    try {
      await expect(app.listen(0, '0.0.0.0')).rejects.toThrow(/auth: \{ keys:.*auth: none/s);
    } finally {
      await app.close();
    }
  });

  it('with auth it listens anywhere; bound to loopback it checks the Host header', async () => {
    const open = await createGatewayApp({
      config: TEAM_FIXTURE,
      env: teamEnv(fake),
      logger: false,
    });
    await open.listen(0, '0.0.0.0');
    await open.close();
    const gateway = await startGateway({ config: TEAM_FIXTURE, env: teamEnv(fake) });
    try {
      const { port } = new URL(gateway.url);
      for (const host of [
        'localhost',
        'localhost',
        `localhost:${port}`,
        `127.0.0.1:${port}`,
        '[::1]',
      ]) {
        const answer = await rawGet(gateway.url, host);
        expect([host, answer]).toEqual([host, expect.stringMatching(/^HTTP\/1\.1 200/)]);
      }
      const rebound = await rawGet(gateway.url, 'attacker.example');
      expect(rebound).toMatch(/^HTTP\/1\.1 403/);
      expect(rebound).toContain('host_not_allowed');
    } finally {
      await gateway.close();
    }
  });
});

/** A GET /health with exactly this Host header (fetch would not send a forged one). */
async function rawGet(url: string, host: string): Promise<string> {
  const { connect } = await import('node:net');
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(`GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
