import 'reflect-metadata';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { GatewayAppOptions } from '../../../apps/gateway/src/create-gateway-app.js';
import type { FakeProvider } from '../../../src/testing/index.js';
import type { RunningGateway } from './gateway-harness.js';
import { KEYS, useFakeGateway } from './team-support.js';

const FIXTURE = new URL('./fixtures/provider-pricing.yaml', import.meta.url).pathname;
const TIGHT = 'sk-tight-0123456789abcdef-canary';
const OPEN = 'sk-open-fedcba9876543210-canary';
const BUDGET_USD = 0.001;
const MAX_TOKENS = 20;
/** 15 words: 15 output tokens for the fake provider, under max_tokens. */
const ANSWER =
  'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen';
const PROMPT = 'hello there';
/** What the library reserves for one call: the prompt estimate plus max_tokens, at its price. */
const worstCaseUsd = (input: number, output: number) =>
  (Math.ceil(PROMPT.length / 4) * input + MAX_TOKENS * output) / 1e6;

interface ErrorBody {
  error: { code: string; message: string; param: string | null };
}
interface Answer {
  usage: { prompt_tokens: number; completion_tokens: number };
  model: string;
}

function env(fake: FakeProvider): Record<string, string> {
  return {
    FAKE_BASE_URL: fake.openaiBaseURL,
    FAKE_API_KEY: KEYS.upstream,
    TIGHT_KEY: TIGHT,
    OPEN_KEY: OPEN,
  };
}

function gatewayOptions(fake: FakeProvider, config = FIXTURE): GatewayAppOptions {
  return { config, env: env(fake), metricsRegistry: new Registry() };
}

const chat = (gateway: RunningGateway, key: string, body: Record<string, unknown>) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({
      max_tokens: MAX_TOKENS,
      messages: [{ role: 'user', content: PROMPT }],
      ...body,
    }),
  });

async function spent(gateway: RunningGateway): Promise<number> {
  const response = await fetch(`${gateway.url}/v1/key`, {
    headers: { authorization: `Bearer ${TIGHT}` },
  });
  return ((await response.json()) as { budget: { spentUsd: number } }).budget.spentUsd;
}

/** The spend once the settles that answers do not wait for have landed. */
async function settledSpend(gateway: RunningGateway, atLeast: number): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const value = await spent(gateway);
    if (value >= atLeast) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return spent(gateway);
}

/** Issue 24, point 3: nothing unpriced runs under a budget by accident. */
describe('provider/model-id prices under a budget', () => {
  const team = useFakeGateway((fake) => {
    for (const model of ['gpt-4o', 'gpt-4o-mini']) fake.setAnswer(model, { text: ANSWER });
    return gatewayOptions(fake);
  });

  it('refuses an unpriced provider/model-id under a budget, naming the fix, before any call', async () => {
    team.fake.requests.clear();
    const refused = await chat(team.gateway, TIGHT, { model: 'fake/gpt-4o' });
    expect(refused.status).toBe(403);
    const { error } = (await refused.json()) as ErrorBody;
    expect(error.code).toBe('model_unpriced');
    expect(error.param).toBe('model');
    expect(error.message).toContain("'fake/gpt-4o' has no price");
    expect(error.message).toContain("budget 'key:tight'");
    expect(error.message).toContain('pricing');
    expect(error.message).toContain('unpricedUnderBudget: allow');
    // streams are refused alike, before their first byte
    const stream = await chat(team.gateway, TIGHT, { model: 'fake/gpt-4o', stream: true });
    expect(stream.status).toBe(403);
    expect(((await stream.json()) as ErrorBody).error.code).toBe('model_unpriced');
    expect(team.fake.requests.count()).toBe(0);
    expect(await spent(team.gateway)).toBe(0);
  });

  it('serves it to a key without a budget', async () => {
    team.fake.requests.clear();
    const served = await chat(team.gateway, OPEN, { model: 'fake/gpt-4o' });
    expect(served.status).toBe(200);
    expect(served.headers.get('x-model-router-cost')).toBeNull();
    expect(team.fake.requests.count()).toBe(1);
  });

  it('prices provider/model-id by the model’s own pricing, else the provider’s', async () => {
    for (const [model, input, output] of [
      ['priced/gpt-4o', 1000, 2000],
      ['priced/gpt-4o-mini', 10, 20],
    ] as const) {
      const response = await chat(team.gateway, OPEN, { model });
      expect(response.status).toBe(200);
      const { usage } = (await response.json()) as Answer;
      expect(usage.completion_tokens).toBe(15);
      const cost = (usage.prompt_tokens * input + usage.completion_tokens * output) / 1e6;
      expect(Number(response.headers.get('x-model-router-cost'))).toBeCloseTo(cost, 12);
    }
  });

  it('passes over the unpriced model of a failover list for a priced one', async () => {
    team.fake.requests.clear();
    const response = await chat(team.gateway, TIGHT, {
      model: 'fake/gpt-4o',
      models: ['priced/gpt-4o-mini'],
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Answer).model).toBe('priced/gpt-4o-mini');
    expect(team.fake.requests.count()).toBe(1);
  });

  it('30 priced calls stop at the budget: spend ≤ budget + one call’s worst case', async () => {
    // the failover list above was charged to the same key
    const before = await spent(team.gateway);
    const statuses: number[] = [];
    let answeredUsd = before;
    for (let i = 0; i < 30; i++) {
      const response = await chat(team.gateway, TIGHT, { model: 'priced/gpt-4o-mini' });
      statuses.push(response.status);
      if (response.status === 200) {
        answeredUsd += Number(response.headers.get('x-model-router-cost'));
        await response.arrayBuffer();
      } else {
        const { error } = (await response.json()) as ErrorBody;
        expect(error.code).toBe('budget_exceeded');
      }
    }
    const answered = statuses.filter((status) => status === 200).length;
    expect(answered).toBeGreaterThan(1);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    const total = await settledSpend(team.gateway, answeredUsd - 1e-12);
    // every answer was charged, and nothing more
    expect(total).toBeCloseTo(answeredUsd, 9);
    expect(total).toBeLessThanOrEqual(BUDGET_USD + worstCaseUsd(10, 20));
  });
});

describe('unpricedUnderBudget: allow', () => {
  const team = useFakeGateway((fake) => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-pricing-'));
    const config = join(dir, 'allow.yaml');
    writeFileSync(config, `${readFileSync(FIXTURE, 'utf8')}\nunpricedUnderBudget: allow\n`);
    return gatewayOptions(fake, config);
  });

  it('serves an unpriced provider/model-id under a budget, charging nothing', async () => {
    const response = await chat(team.gateway, TIGHT, { model: 'fake/gpt-4o' });
    expect(response.status).toBe(200);
    expect(team.fake.requests.count()).toBe(1);
    expect(await spent(team.gateway)).toBe(0);
  });
});
