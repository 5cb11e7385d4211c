import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { RouterStatusReport } from '../../../src/index.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { waitForAsync } from '../../integration/redis/redis-fixtures.js';
import {
  isRedisServerAvailable,
  startRedisServer,
  type RedisServer,
} from '../../support/redis-server.js';
import { ManualClock, postJson, startGateway, type RunningGateway } from './gateway-harness.js';

const FIXTURE = new URL('./fixtures/status.yaml', import.meta.url).pathname;
const REDIS_FIXTURE = new URL('./fixtures/status-redis.yaml', import.meta.url).pathname;
const AUTH_FIXTURE = new URL('./fixtures/status-auth.yaml', import.meta.url).pathname;
const CLIENT_KEY = 'sk-status-client-5c4b3a2918';
const ADMIN_KEY = 'sk-status-admin-7e6d5c4b3a';

const ask = (gateway: RunningGateway, stream = false) =>
  postJson(`${gateway.url}/v1/chat/completions`, {
    model: 'main',
    stream,
    messages: [{ role: 'user', content: 'hello' }],
  });

async function status(gateway: RunningGateway): Promise<RouterStatusReport> {
  const response = await fetch(`${gateway.url}/router/status`);
  expect(response.status).toBe(200);
  return (await response.json()) as RouterStatusReport;
}

const modelOf = (report: RouterStatusReport, name: string) =>
  report.routers[0]!.routes[0]!.models.find((model) => model.name === name)!;

describe('GET /router/status and GET /status without auth (loopback)', () => {
  const clock = new ManualClock();
  let fake: FakeProvider;
  let gateway: RunningGateway;

  beforeAll(async () => {
    fake = await FakeProvider.start();
    gateway = await startGateway({
      config: FIXTURE,
      env: { FAKE_BASE_URL: fake.openaiBaseURL, FAKE_API_KEY: 'fake-upstream-key' },
      clock: clock.read,
      metricsRegistry: new Registry(),
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await fake?.close();
  });

  it('shows a broken model open with its reason, the failover, and the budget spent', async () => {
    const before = await status(gateway);
    expect(before.routers.map((router) => router.name)).toEqual(['main']);
    expect(modelOf(before, 'primary')).toMatchObject({ state: 'closed', requests: 0, errors: 0 });
    expect(before.budgets).toEqual([
      expect.objectContaining({ name: 'main-hourly', limitUsd: 5, spentUsd: 0, state: 'ok' }),
    ]);
    expect(before.sources).toEqual({ circuits: 'replica', budgets: 'replica', traffic: 'replica' });

    fake.setFault('gpt-primary', 'fault-503');
    expect((await ask(gateway)).status).toBe(200);
    expect((await ask(gateway, true)).status).toBe(200);

    const after = await status(gateway);
    const primary = modelOf(after, 'primary');
    expect(primary).toMatchObject({ state: 'open', requests: 1, errors: 1 });
    expect(Date.parse(primary.cooldownUntil!)).toBeGreaterThan(clock.now);
    expect(primary.nextProbeAt).toBe(primary.cooldownUntil);
    expect(primary.lastError?.message).toMatch(/503/);
    const backup = modelOf(after, 'backup');
    expect(backup).toMatchObject({ state: 'closed', requests: 2, errors: 0 });
    expect(backup.latencyMs.p50).not.toBeNull();
    expect(backup.firstTokenMs.p50).not.toBeNull();
    expect(backup.tpm).toBeGreaterThan(0);
    // its rpm limit, counted where every replica counts it
    expect(backup.limits).toEqual({ rpm: { used: 2, limit: 100 } });
    expect(primary.limits).toBeUndefined();
    expect(after.routers[0]!.status).toBe('degraded');
    expect(after.failovers).toEqual([
      expect.objectContaining({ router: 'main', from: 'primary', to: 'backup' }),
    ]);
    expect(after.failovers[0]!.reason).toMatch(/503/);
    expect(after.budgets[0]!.spentUsd).toBeGreaterThan(0);

    // the window moves with the injected clock: five minutes on, the traffic is gone
    clock.advance(5 * 60_000 + 1);
    const later = await status(gateway);
    expect(modelOf(later, 'backup').requests).toBe(0);
    expect(later.failovers).toEqual([]);
    // its cooldown over, the next call probes it
    expect(modelOf(later, 'primary').state).toBe('half-open');
  });

  it('serves the page self-contained, with a policy that forbids anything from outside', async () => {
    const response = await fetch(`${gateway.url}/status`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    const html = await response.text();
    expect(html).toContain('content="/router/status"');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('refuses bad input cheaply: query parameters, a huge Accept', async () => {
    for (const path of ['/router/status?x=1', '/status?verbose', '/router/status?__proto__=1']) {
      const response = await fetch(`${gateway.url}${path}`);
      expect([path, response.status]).toEqual([path, 400]);
    }
    for (const path of ['/router/status', '/status']) {
      const response = await fetch(`${gateway.url}${path}`, {
        headers: { accept: `text/html;q=0.9,${'x/y;q=0.1,'.repeat(1000)}` },
      });
      expect([path, response.status]).toEqual([path, 431]);
    }
  });
});

describe('GET /router/status and GET /status with auth', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;

  beforeAll(async () => {
    fake = await FakeProvider.start();
    gateway = await startGateway({
      config: AUTH_FIXTURE,
      env: {
        FAKE_BASE_URL: fake.openaiBaseURL,
        FAKE_API_KEY: 'fake-upstream-key',
        CLIENT_KEY,
        ADMIN_KEY,
      },
      metricsRegistry: new Registry(),
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await fake?.close();
  });

  const get = (path: string, key?: string) =>
    fetch(`${gateway.url}${path}`, key ? { headers: { authorization: `Bearer ${key}` } } : {});

  it('the JSON needs an admin key; the page is a shell that asks for one', async () => {
    expect((await get('/router/status')).status).toBe(401);
    expect((await get('/router/status', 'sk-wrong-key-123456')).status).toBe(401);
    expect((await get('/router/status', CLIENT_KEY)).status).toBe(403);
    const answered = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${CLIENT_KEY}` },
      body: JSON.stringify({ model: 'main', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answered.status).toBe(200);
    const report = (await (await get('/router/status', ADMIN_KEY)).json()) as RouterStatusReport;
    expect(report.routers[0]!.name).toBe('main');
    // the gateway's own section: each limited key's minute, by name
    expect(report.keys).toEqual([{ name: 'team', rpm: { used: 1, limit: 10 }, tpm: null }]);
    expect(JSON.stringify(report)).not.toContain(CLIENT_KEY);
    expect((await get('/status', 'sk-wrong-key-123456')).status).toBe(401);
    expect((await get('/status', CLIENT_KEY)).status).toBe(403);
    const shell = await get('/status');
    expect(shell.status).toBe(200);
    // the shell holds no status: only the form that asks for the key
    const html = await shell.text();
    expect(html).toContain('Admin key');
    expect(html).not.toContain('primary');
    expect((await get('/router/status?x=1', ADMIN_KEY)).status).toBe(400);
  });
});

(isRedisServerAvailable() ? describe : describe.skip)('two replicas on one Redis', () => {
  let fake: FakeProvider;
  let redis: RedisServer;
  let replicas: RunningGateway[];

  beforeAll(async () => {
    fake = await FakeProvider.start();
    redis = await startRedisServer();
    const env = {
      FAKE_BASE_URL: fake.openaiBaseURL,
      FAKE_API_KEY: 'fake-upstream-key',
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
    };
    replicas = [];
    for (let i = 0; i < 2; i++) {
      replicas.push(
        await startGateway({ config: REDIS_FIXTURE, env, metricsRegistry: new Registry() }),
      );
    }
  });

  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.close();
    await redis?.stop();
    await fake?.close();
  });

  it('shows the circuit and the spend another replica caused, and only its own traffic', async () => {
    const [a, b] = replicas as [RunningGateway, RunningGateway];
    fake.setFault('gpt-primary', 'fault-503');
    expect((await ask(a)).status).toBe(200);
    // the circuit reaches the other replica through Redis (pub/sub): wait for it, bounded
    let seen: RouterStatusReport | undefined;
    await waitForAsync(async () => {
      seen = await status(b);
      return modelOf(seen, 'primary').state === 'open' && seen.budgets[0]!.spentUsd > 0;
    });
    const report = seen!;
    expect(report.sources).toEqual({ circuits: 'shared', budgets: 'shared', traffic: 'replica' });
    expect(report.stateStore.shared).toBe(true);
    expect(modelOf(report, 'primary').lastError?.message).toMatch(/503/);
    // the call went through replica a: b saw no traffic of its own
    expect(modelOf(report, 'primary').requests).toBe(0);
    // one call, through replica a: the rpm counter is the shared one
    expect(modelOf(report, 'backup').limits).toEqual({ rpm: { used: 1, limit: 100 } });
    expect(report.failovers).toEqual([]);
    expect((await status(a)).failovers).toHaveLength(1);
  });
});
