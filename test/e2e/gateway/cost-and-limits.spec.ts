import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FakeProvider } from '../../../src/testing/index.js';
import {
  ManualClock,
  postJson,
  sseData,
  startGatewayOnFake,
  user,
  type RunningGateway,
} from './gateway-harness.js';

const KEY = 'sk-fake-cost-0123456789';

describe('cost, limits and budgets through the gateway over HTTP', () => {
  // the middle of an hour and of a minute, so windows do not roll over during the suite
  const clock = new ManualClock(Date.parse('2030-01-01T10:30:30Z'));
  let fake: FakeProvider;
  let gateway: RunningGateway;
  const chat = (body: Record<string, unknown>) =>
    postJson(`${gateway.url}/v1/chat/completions`, body);

  beforeAll(async () => {
    ({ fake, gateway } = await startGatewayOnFake(KEY, {
      clock: clock.read,
      config: 'test/e2e/gateway/fixtures/cost-and-limits.yaml',
    }));
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('answers with x-model-router-cost and usage.cost when the serving model has pricing', async () => {
    const response = await chat({ model: 'priced', messages: [user('hello there')] });
    const body = (await response.json()) as { usage: Record<string, number> };
    // 2 prompt tokens × 100 + 6 completion tokens × 200, per million
    expect(response.headers.get('x-model-router-cost')).toBe('0.0014');
    expect(body.usage).toEqual({
      prompt_tokens: 2,
      completion_tokens: 6,
      total_tokens: 8,
      cost: 0.0014,
    });
  });

  it('an unpriced model: no cost header and no usage.cost (unknown, not 0)', async () => {
    const response = await chat({ model: 'free', messages: [user('hello there')] });
    const body = (await response.json()) as { usage: Record<string, number> };
    expect(response.headers.get('x-model-router-cost')).toBeNull();
    expect(body.usage).not.toHaveProperty('cost');
  });

  it('a stream carries the cost in its last chunk’s usage', async () => {
    const response = await chat({ model: 'priced', stream: true, messages: [user('hello there')] });
    const chunks = sseData(await response.text());
    const last = chunks.at(-2) as { usage: Record<string, number> };
    expect(last.usage.cost).toBe(0.0014);
    expect(chunks.at(-1)).toBe('[DONE]');
  });

  it('holds a model at its rpm: the group skips it to the spare, health says why', async () => {
    const served: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await chat({ model: 'pool', messages: [user('hi')] });
      served.push(response.headers.get('x-model-router-model') ?? '');
    }
    expect(served).toEqual(['limited', 'limited', 'spare', 'spare']);
    expect(fake.requests.count('gpt-limited')).toBe(2);
    const health = (await (await fetch(`${gateway.url}/health`)).json()) as {
      details: {
        'model-router': {
          routers: Record<string, { models: Record<string, { skipped?: unknown; state: string }> }>;
        };
      };
    };
    const limited = health.details['model-router'].routers.pool!.models.limited!;
    expect(limited.state).toBe('available');
    expect(limited.skipped).toEqual({ reason: 'rate-limited', until: '2030-01-01T10:31:00.000Z' });
    clock.advance(60_000);
    const next = await chat({ model: 'pool', messages: [user('hi')] });
    expect(next.headers.get('x-model-router-model')).toBe('limited');
  });

  it('reads the provider’s remaining-quota headers: an exhausted model is skipped until the reset', async () => {
    for (const [router, stream] of [
      ['quota', false],
      ['quota-stream', true],
    ] as const) {
      const served: string[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await chat({ model: router, stream, messages: [user('hi')] });
        await response.text();
        served.push(response.headers.get('x-model-router-model') ?? '');
      }
      // the first answer said 0 requests left for 30 s: the next calls go to the spare
      expect(served.slice(1)).toEqual(['spare', 'spare']);
      expect(served[0]).toMatch(/^spent/);
    }
    clock.advance(30_001);
    const back = await chat({ model: 'quota', messages: [user('hi')] });
    expect(back.headers.get('x-model-router-model')).toBe('spent');
  });

  it('answers 400 context_length_exceeded naming the sizes when no model can hold the request', async () => {
    const response = await chat({
      model: 'small',
      max_tokens: 40,
      messages: [user('x'.repeat(100))],
    });
    const body = (await response.json()) as {
      error: { code: string; type: string; message: string };
    };
    expect(response.status).toBe(400);
    expect(body.error).toMatchObject({
      code: 'context_length_exceeded',
      type: 'invalid_request_error',
    });
    expect(body.error.message).toContain('largest context window');
    expect(body.error.message).toContain('(50: tiny)');
    expect(fake.requests.count('gpt-tiny')).toBe(0);
  });

  it('a spent budget answers 429 budget_exceeded naming the budget and its reset; health shows the spend', async () => {
    // each call ≈ 0.0014 USD: the second crosses 0.002
    for (let i = 0; i < 2; i++)
      expect((await chat({ model: 'budgeted', messages: [user('hello there')] })).status).toBe(200);
    const response = await chat({ model: 'budgeted', messages: [user('hello there')] });
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe(
      String(Math.ceil((Date.parse('2030-01-01T11:00:00Z') - clock.now) / 1000)),
    );
    expect(body.error).toMatchObject({
      type: 'budget_exceeded',
      code: 'budget_exceeded',
      budget: 'capped-hourly',
      limit_usd: 0.002,
      spent_usd: 0.0028,
      resets_at: '2030-01-01T11:00:00.000Z',
    });
    expect(fake.requests.count('gpt-capped')).toBe(2);
    const health = (await (await fetch(`${gateway.url}/health`)).json()) as {
      details: { 'model-router': { budgets: unknown[] } };
    };
    expect(health.details['model-router'].budgets).toEqual([
      {
        name: 'capped-hourly',
        scope: { router: 'budgeted' },
        period: '1h',
        limitUsd: 0.002,
        spentUsd: 0.0028,
        resetsAt: '2030-01-01T11:00:00.000Z',
        state: 'exceeded',
      },
    ]);
  });
});
