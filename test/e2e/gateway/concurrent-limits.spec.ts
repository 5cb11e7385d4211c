import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { FakeProvider } from '../../../src/testing/index.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { ManualClock, startGateway, type RunningGateway } from './gateway-harness.js';
import { KEYS } from './team-support.js';

const FIXTURE = new URL('./fixtures/concurrent-limits.yaml', import.meta.url).pathname;
const SPENDER = 'sk-spender-0123456789abcdef-canary';
const COUNTER = 'sk-counter-fedcba9876543210-canary';
const BUDGET_USD = 0.05;
const TPM = 500;
const MAX_TOKENS = 20;
/** 15 words: 15 output tokens for the fake provider, under max_tokens. */
const ANSWER =
  'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen';
const BODY = (model: string) =>
  JSON.stringify({
    model,
    max_tokens: MAX_TOKENS,
    messages: [{ role: 'user', content: 'hello there' }],
  });
/** What the library reserves for one call: the prompt estimate plus max_tokens, at its price. */
const worstCaseUsd = (input: number, output: number) =>
  (Math.ceil('hello there'.length / 4) * input + MAX_TOKENS * output) / 1e6;

interface Outcome {
  status: number;
  tokens: number;
}

async function call(replica: RunningGateway, key: string, model: string): Promise<Outcome> {
  const response = await fetch(`${replica.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: BODY(model),
  });
  const body = (await response.json()) as { usage?: { total_tokens: number } };
  return { status: response.status, tokens: body.usage?.total_tokens ?? 0 };
}

async function spentOn(replica: RunningGateway): Promise<number> {
  const response = await fetch(`${replica.url}/v1/key`, {
    headers: { authorization: `Bearer ${SPENDER}` },
  });
  return ((await response.json()) as { budget: { spentUsd: number } }).budget.spentUsd;
}

/**
 * Through the gateway, two replicas on one redis-server (issue 24, point 1): a key's budget and
 * tpm hold under 200 concurrent calls.
 */
describe('budgets and tpm under concurrency, two replicas sharing Redis', () => {
  const clock = new ManualClock(Date.parse('2030-01-10T10:30:30Z'));
  let redis: RedisServer;
  let fake: FakeProvider;
  let replicas: RunningGateway[];

  const concurrently = (key: string, model: string) =>
    Promise.all(Array.from({ length: 200 }, (_, i) => call(replicas[i % 2]!, key, model)));

  /** The spend both replicas agree on, once every settle reached Redis and both re-read it. */
  const agreedSpend = async (): Promise<number> => {
    for (let i = 0; i < 1200; i++) {
      const [one, two] = [await spentOn(replicas[0]!), await spentOn(replicas[1]!)];
      if (one > 0 && one === two) return one;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the replicas never agreed on the spend');
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
    fake.setAnswer('gpt-4o-mini', { text: ANSWER });
    fake.setAnswer('gpt-4o', { text: ANSWER });
    const env = {
      FAKE_BASE_URL: fake.openaiBaseURL,
      FAKE_API_KEY: KEYS.upstream,
      SPENDER_KEY: SPENDER,
      COUNTER_KEY: COUNTER,
      REDIS_URL: redis.url,
    };
    replicas = [];
    for (let i = 0; i < 2; i++) {
      replicas.push(
        await startGateway({
          config: FIXTURE,
          env,
          clock: clock.read,
          metricsRegistry: new Registry(),
        }),
      );
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await fake.close();
    await redis.stop();
  });

  it('a $0.05 key budget: spend at most the limit plus one call’s worst case', async () => {
    const outcomes = await concurrently(SPENDER, 'auto');
    const answered = outcomes.filter((o) => o.status === 200).length;
    expect(answered).toBeGreaterThan(0);
    expect(outcomes.every((o) => o.status === 200 || o.status === 429)).toBe(true);
    const spent = await agreedSpend();
    expect(spent).toBeLessThanOrEqual(BUDGET_USD + worstCaseUsd(100, 200));
  }, 60_000);

  it('also when every call fails over to a model ten times pricier', async () => {
    const before = await agreedSpend();
    // the budget was used up above: a new period starts from 0
    clock.advance(31 * 86_400_000);
    const outcomes = await concurrently(SPENDER, 'upgrade');
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(0);
    // 429 also when the first model failed and the budget stopped the failover to the second
    expect(outcomes.every((o) => o.status === 200 || o.status === 429)).toBe(true);
    const spent = await agreedSpend();
    expect(spent).not.toBe(before);
    expect(spent).toBeLessThanOrEqual(BUDGET_USD + worstCaseUsd(1000, 2000));
  }, 60_000);

  it('tpm 500: serves at most 500 tokens plus one call’s worst case a minute', async () => {
    const outcomes = await concurrently(COUNTER, 'auto');
    const served = outcomes.reduce((sum, o) => sum + o.tokens, 0);
    const worstCaseTokens = Math.ceil(Buffer.byteLength(BODY('auto')) / 4) + MAX_TOKENS;
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status === 429).length).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(TPM + worstCaseTokens);
  }, 60_000);
});
