import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { FakeProvider } from '../../../src/testing/index.js';
import { ManualClock, startGateway, type RunningGateway } from './gateway-harness.js';
import { chatBody, KEYS, TEAM_FIXTURE, teamEnv } from './team-support.js';

/** Words of the scripted answer: one token each for the fake provider. */
const ANSWER_TOKENS = 300;
const ANSWER = Array.from({ length: ANSWER_TOKENS }, (_, i) => `w${i % 10}`).join(' ');

interface WireKeyBudget {
  budget: { spentUsd: number };
}

/**
 * Streams a client drops before their end are paid for (issue 24, point 2): through the gateway,
 * on the fake provider, each read to about 80 % of its answer and then dropped.
 */
describe('a stream the client drops', () => {
  const clock = new ManualClock(Date.parse('2030-01-10T10:30:30Z'));
  let fake: FakeProvider;
  let gateway: RunningGateway;

  const spent = async (): Promise<number> => {
    const response = await fetch(`${gateway.url}/v1/key`, {
      headers: { authorization: `Bearer ${KEYS.teamA}` },
    });
    return ((await response.json()) as WireKeyBudget).budget.spentUsd;
  };

  /** The key's spend once it moved past `from` (the charge of a dropped stream lands after it). */
  const spentAfter = async (from: number): Promise<number> => {
    for (let i = 0; i < 2000; i++) {
      const now = await spent();
      if (now > from) return now;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return spent();
  };

  /** Streams `model`, reads `share` of the answer's tokens (all when 1), then drops it. */
  const stream = async (
    share: number,
    model = 'auto',
  ): Promise<{ status: number; tokens: number }> => {
    const controller = new AbortController();
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEYS.teamA}` },
      body: chatBody(model, { stream: true }),
      signal: controller.signal,
    });
    if (response.status !== 200) return { status: response.status, tokens: 0 };
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let tokens = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        tokens = (text.match(/"content":"\s*w\d/g) ?? []).length;
        if (share < 1 && tokens >= ANSWER_TOKENS * share) {
          controller.abort();
          break;
        }
      }
    } catch {
      // the abort of our own read
    }
    return { status: 200, tokens };
  };

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEYS.upstream, tokenDelayMs: 1 });
    fake.setAnswer('gpt-4o-mini', { text: ANSWER });
    fake.setAnswer('gpt-4o', { text: ANSWER });
    gateway = await startGateway({
      config: TEAM_FIXTURE,
      env: teamEnv(fake, { TEAM_A_TPM: '1000' }),
      clock: clock.read,
      metricsRegistry: new Registry(),
    });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('is charged at least 70 % of a full stream, ten times in a row', async () => {
    const full = await stream(1);
    expect(full).toEqual({ status: 200, tokens: ANSWER_TOKENS });
    const fullCost = await spentAfter(0);
    expect(fullCost).toBeGreaterThan(0.06);
    let before = fullCost;
    for (let i = 0; i < 10; i++) {
      clock.advance(60_000); // the key's tpm (1,000) is another test's matter
      const dropped = await stream(0.8);
      expect(dropped.status).toBe(200);
      expect(dropped.tokens).toBeLessThan(ANSWER_TOKENS);
      const after = await spentAfter(before);
      expect(after - before).toBeGreaterThanOrEqual(0.7 * fullCost);
      before = after;
    }
  }, 60_000);

  it('is charged the same when it addresses a model directly', async () => {
    clock.advance(60_000);
    const before = await spent();
    expect((await stream(1, 'mini')).tokens).toBe(ANSWER_TOKENS);
    const full = (await spentAfter(before)) - before;
    clock.advance(60_000);
    const start = await spent();
    expect((await stream(0.8, 'mini')).status).toBe(200);
    expect((await spentAfter(start)) - start).toBeGreaterThanOrEqual(0.7 * full);
  });

  it('counts its tokens in the key’s tpm window, which then refuses the key', async () => {
    // a new minute: the window starts empty; 1,000 tpm hold four streams cut at 240 tokens
    clock.advance(60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const before = await spent();
      const { status } = await stream(0.8);
      statuses.push(status);
      // the gateway settles a dropped stream when it notices the drop: wait for that
      if (status === 200) await spentAfter(before);
    }
    // the dropped streams' tokens filled the window: a key that once spent nothing is refused
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.slice(4)).toContain(429);
  });
});
