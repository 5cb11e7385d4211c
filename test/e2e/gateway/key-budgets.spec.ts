import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import { Registry } from 'prom-client';
import { FakeProvider } from '../../../src/testing/index.js';
import { ManualClock, startGateway, type RunningGateway } from './gateway-harness.js';
import { chatBody, KEYS, TEAM_FIXTURE, teamEnv } from './team-support.js';

interface WireKeyBudget {
  budget: { limitUsd: number; spentUsd: number; resetsAt: string; state: string };
}

/** Per-key spend on the library's budgets (each answer here costs 0.0014 USD). */
describe('a key’s budget', () => {
  const clock = new ManualClock(Date.parse('2030-01-10T10:30:30Z'));
  let fake: FakeProvider;
  let gateway: RunningGateway;

  const chat = (model: string, key = KEYS.teamA) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: chatBody(model),
    });
  const spend = async () =>
    (
      (await (
        await fetch(`${gateway.url}/v1/key`, { headers: { authorization: `Bearer ${KEYS.teamA}` } })
      ).json()) as WireKeyBudget
    ).budget;

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
    gateway = await startGateway({
      config: TEAM_FIXTURE,
      env: teamEnv(fake, { TEAM_A_BUDGET: '0.004' }),
      clock: clock.read,
      metricsRegistry: new Registry(),
    });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('is charged by routers and directly addressed models alike, then answers 429', async () => {
    expect(await spend()).toMatchObject({ limitUsd: 0.004, spentUsd: 0, state: 'ok' });
    expect((await chat('auto')).status).toBe(200);
    expect((await chat('mini')).status).toBe(200);
    expect((await spend()).spentUsd).toBeCloseTo(0.0028, 9);
    expect((await chat('auto')).status).toBe(200);
    const status = await spend();
    expect(status).toMatchObject({ state: 'exceeded' });
    expect(status.spentUsd).toBeCloseTo(0.0042, 9);
    for (const model of ['auto', 'mini']) {
      const refused = await chat(model);
      expect(refused.status).toBe(429);
      const { error } = (await refused.json()) as { error: Record<string, unknown> };
      expect(error.code).toBe('budget_exceeded');
      expect(error.message).toContain("Budget 'key:team-a' is spent");
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // it resets in weeks: the official client, told not to retry, asks once, not three times
    let requests = 0;
    const client = new OpenAI({
      baseURL: `${gateway.url}/v1`,
      apiKey: KEYS.teamA,
      maxRetries: 2,
      fetch: ((url: string | URL | Request, init?: RequestInit) => {
        requests++;
        return fetch(url, init);
      }) as typeof fetch,
    });
    const refusal = await client.chat.completions
      .create({ model: 'auto', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 429, code: 'budget_exceeded' });
    expect(requests).toBe(1);
    // another key spends from its own budget (none here)
    expect((await chat('fake/gpt-4o-mini', KEYS.teamB)).status).toBe(200);
  });

  it('starts again when its period ends', async () => {
    const { resetsAt } = await spend();
    clock.now = Date.parse(resetsAt);
    expect(await spend()).toMatchObject({ spentUsd: 0, state: 'ok' });
    expect((await chat('auto')).status).toBe(200);
  });
});
