import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { FakeProvider } from '../../../src/testing/index.js';
import {
  ManualClock,
  postJson,
  sseData,
  startGatewayOnFake,
  user,
  type RunningGateway,
} from './gateway-harness.js';

const KEY = 'sk-fake-downgrade-0123456789';

/** Issue 28, point 1: a spent budget sends calls to its fallback instead of refusing them. */
describe('budget downgrade through the gateway over HTTP', () => {
  // the middle of an hour, so the budgets' period does not roll over during the suite
  const clock = new ManualClock(Date.parse('2030-01-01T10:30:30Z'));
  const metrics = new Registry();
  let fake: FakeProvider;
  let gateway: RunningGateway;
  const chat = (body: Record<string, unknown> = {}) =>
    postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'main',
      messages: [user('hello there')],
      ...body,
    });

  beforeAll(async () => {
    ({ fake, gateway } = await startGatewayOnFake(KEY, {
      clock: clock.read,
      config: 'test/e2e/gateway/fixtures/budget-downgrade.yaml',
      metricsRegistry: metrics,
    }));
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('serves from the fallback once the budget is spent, then refuses when the fallback’s is', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await chat();
      expect(response.status).toBe(200);
      expect(response.headers.get('x-model-router-downgraded')).toBeNull();
      expect(response.headers.get('x-model-router-model')).toBe('big');
      await response.text();
    }
    const downgraded = await chat();
    expect(downgraded.status).toBe(200);
    expect(downgraded.headers.get('x-model-router-downgraded')).toBe('big-hourly');
    expect(downgraded.headers.get('x-model-router-model')).toBe('small');
    // priced at the fallback's price: 2 prompt tokens × 10 + 6 completion tokens × 20, per million
    expect(downgraded.headers.get('x-model-router-cost')).toBe('0.00014');
    expect(((await downgraded.json()) as { usage: { cost: number } }).usage.cost).toBe(0.00014);

    // a stream is downgraded too (the refusal comes before its first byte)
    const stream = await chat({ stream: true });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('x-model-router-downgraded')).toBe('big-hourly');
    const chunks = sseData(await stream.text());
    expect(chunks.length).toBeGreaterThan(1);

    // the fallback's own budget holds: no escape through a downgrade
    const refused = await chat();
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: 'budget_exceeded', budget: 'small-hourly' });
    expect(fake.requests.all().map((request) => request.model)).toEqual([
      'gpt-4o',
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4o-mini',
    ]);
  });

  it('counts downgrades in metrics, by budget and fallback', async () => {
    const text = await metrics.metrics();
    // three calls went to the fallback; the last of them its own budget refused
    expect(text).toMatch(
      /model_router_budget_downgrades_total\{router="main",budget="big-hourly",to="cheap"\} 3/,
    );
    expect(text).toMatch(
      /model_router_cost_usd_total\{router="main",route="",model="small"\} 0.00028/,
    );
  });

  it('shows the downgrades on the status report (loopback, no auth)', async () => {
    const report = (await (await fetch(`${gateway.url}/router/status`)).json()) as {
      downgrades?: { budget: string; to: string; count: number; lastAt: number }[];
    };
    expect(report.downgrades).toEqual([
      { budget: 'big-hourly', to: 'cheap', count: 3, lastAt: clock.read() },
    ]);
  });
});

describe('a key budget with a fallback', () => {
  const clock = new ManualClock(Date.parse('2030-01-01T10:30:30Z'));
  const TEAM_A = 'sk-team-a-downgrade-0123456789';
  let fake: FakeProvider;
  let gateway: RunningGateway;

  beforeAll(async () => {
    ({ fake, gateway } = await startGatewayOnFake(KEY, {
      clock: clock.read,
      config: 'test/e2e/gateway/fixtures/budget-downgrade-keys.yaml',
      env: { TEAM_A_KEY: TEAM_A },
      metricsRegistry: new Registry(),
    }));
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('serves the key from its fallback once its budget is spent', async () => {
    const served: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TEAM_A}` },
        body: JSON.stringify({ model: 'main', messages: [user('hello there')] }),
      });
      expect(response.status).toBe(200);
      await response.text();
      served.push(response.headers.get('x-model-router-downgraded'));
    }
    expect(served).toEqual([null, null, 'key:team-a']);
    expect(fake.requests.all().map((request) => request.model)).toEqual([
      'gpt-4o',
      'gpt-4o',
      'gpt-4o-mini',
    ]);
  });
});
