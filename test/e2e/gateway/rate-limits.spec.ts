import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import { Registry } from 'prom-client';
import { FakeProvider } from '../../../src/testing/index.js';
import {
  isRedisServerAvailable,
  type RedisServer,
  startRedisServer,
} from '../../support/redis-server.js';
import { ManualClock, startGateway, type RunningGateway } from './gateway-harness.js';
import {
  chatBody,
  clientWith,
  KEYS,
  TEAM_FIXTURE,
  teamEnv,
  teamFixtureWith,
} from './team-support.js';

const chat = (gateway: RunningGateway, key = KEYS.teamA, body = chatBody('auto')) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body,
  });

const limitHeaders = (answer: Response, kind: 'requests' | 'tokens') => ({
  limit: answer.headers.get(`x-ratelimit-limit-${kind}`),
  remaining: answer.headers.get(`x-ratelimit-remaining-${kind}`),
  reset: answer.headers.get(`x-ratelimit-reset-${kind}`),
});

describe('per-key limits (rpm, tpm) through @nestjs/throttler', () => {
  let fake: FakeProvider;

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
  });

  afterAll(() => fake.close());

  describe('rpm', () => {
    const clock = new ManualClock();
    let gateway: RunningGateway;

    beforeAll(async () => {
      gateway = await startGateway({
        config: TEAM_FIXTURE,
        env: teamEnv(fake, { TEAM_A_RPM: '3' }),
        clock: clock.read,
        metricsRegistry: new Registry(),
      });
    });

    afterAll(() => gateway.close());

    it('counts requests per key, with OpenAI’s headers, then 429 with Retry-After', async () => {
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await chat(gateway);
        expect(answer.status).toBe(200);
        const headers = limitHeaders(answer, 'requests');
        expect(headers.limit).toBe('3');
        expect(headers.reset).toBe('1m0s');
        remaining.push(headers.remaining);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      clock.advance(15_000);
      const refused = await chat(gateway);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('45');
      expect(limitHeaders(refused, 'requests')).toEqual({
        limit: '3',
        remaining: '0',
        reset: '45s',
      });
      const { error } = (await refused.json()) as { error: Record<string, unknown> };
      expect(error).toMatchObject({ code: 'rate_limit_exceeded', type: 'requests' });
      expect(error.message).toMatch(/3 requests per minute.*45s/);
      // another key has its own window
      expect((await chat(gateway, KEYS.teamB)).status).toBe(200);
    });

    it('the official client sees a RateLimitError; the next window serves again', async () => {
      const client = clientWith(gateway.url, KEYS.teamA);
      const error = await client.chat.completions
        .create({ model: 'auto', messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      clock.advance(45_000);
      const completion = await client.chat.completions.create({
        model: 'auto',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(completion.choices[0]?.message.content).toContain('You said');
    });

    it('a key without limits and GET routes are not limited', async () => {
      for (let i = 0; i < 5; i++) {
        const answer = await fetch(`${gateway.url}/v1/models`, {
          headers: { authorization: `Bearer ${KEYS.teamA}` },
        });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-ratelimit-limit-requests')).toBeNull();
      }
    });
  });

  describe('tpm', () => {
    const clock = new ManualClock();
    let gateway: RunningGateway;

    beforeAll(async () => {
      gateway = await startGateway({
        config: TEAM_FIXTURE,
        env: teamEnv(fake, { TEAM_A_TPM: '12' }),
        clock: clock.read,
        metricsRegistry: new Registry(),
      });
    });

    afterAll(() => gateway.close());

    it('counts the tokens of answers, streamed ones included, and refuses once they are used', async () => {
      const first = await chat(gateway);
      expect(first.status).toBe(200);
      const { usage } = (await first.json()) as { usage: { total_tokens: number } };
      expect(usage.total_tokens).toBeGreaterThan(0);
      // while it runs, a request holds its worst case (its body, and 4,096 tokens of output it
      // may produce), as OpenAI counts max_tokens: nothing remains for others meanwhile
      expect(limitHeaders(first, 'tokens')).toEqual({
        limit: '12',
        remaining: '0',
        reset: '1m0s',
      });
      // the answer settled the hold to its real usage: room for one more
      expect(usage.total_tokens).toBeLessThan(12);
      const stream = await chat(gateway, KEYS.teamA, chatBody('auto', { stream: true }));
      expect(stream.status).toBe(200);
      await stream.text();
      const refused = await chat(gateway);
      expect(refused.status).toBe(429);
      const { error } = (await refused.json()) as { error: Record<string, unknown> };
      expect(error).toMatchObject({ code: 'rate_limit_exceeded', type: 'tokens' });
      expect(refused.headers.get('retry-after')).toBe('60');
      clock.advance(60_000);
      expect((await chat(gateway)).status).toBe(200);
    });
  });

  const redisAvailable = isRedisServerAvailable();
  (redisAvailable ? describe : describe.skip)('across replicas sharing Redis', () => {
    const clock = new ManualClock();
    let redis: RedisServer;
    let first: RunningGateway;
    let second: RunningGateway;

    beforeAll(async () => {
      redis = await startRedisServer();
      const config = teamFixtureWith(`state: { type: redis, url: '${redis.url}' }`);
      const env = teamEnv(fake, { TEAM_A_RPM: '4' });
      first = await startGateway({
        config,
        env,
        clock: clock.read,
        metricsRegistry: new Registry(),
      });
      second = await startGateway({
        config,
        env,
        clock: clock.read,
        metricsRegistry: new Registry(),
      });
    });

    afterAll(async () => {
      await first?.close();
      await second?.close();
      await redis?.stop();
    });

    it('holds one key’s limit across two gateway instances', async () => {
      const statuses = [];
      for (const gateway of [first, second, first, second, first, second]) {
        statuses.push((await chat(gateway)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      clock.advance(60_000);
      expect((await chat(second)).status).toBe(200);
    });

    it('keeps serving when Redis goes away, each instance counting on its own', async () => {
      clock.advance(60_000);
      await redis.kill();
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await chat(first)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      expect((await chat(second)).status).toBe(200);
      await redis.restart();
    });
  });
});
