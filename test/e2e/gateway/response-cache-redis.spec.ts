import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { FakeProvider } from '../../../src/testing/index.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { startGateway, type RunningGateway } from './gateway-harness.js';
import { KEYS } from './team-support.js';

const FIXTURE = new URL('./fixtures/response-cache-redis.yaml', import.meta.url).pathname;

/** Two gateways on one redis-server share cached answers; Redis away makes a miss, not a failure. */
describe('the response cache in Redis, two replicas', () => {
  let redis: RedisServer;
  let fake: FakeProvider;
  let replicas: RunningGateway[];

  beforeAll(async () => {
    redis = await startRedisServer();
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
    const env = {
      FAKE_BASE_URL: fake.openaiBaseURL,
      FAKE_API_KEY: KEYS.upstream,
      REDIS_URL: redis.url,
    };
    replicas = [];
    for (let i = 0; i < 2; i++) {
      replicas.push(await startGateway({ config: FIXTURE, env, metricsRegistry: new Registry() }));
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await fake.close();
    await redis.stop();
  });

  const chat = async (replica: RunningGateway, content: string) => {
    const response = await fetch(`${replica.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'auto', messages: [{ role: 'user', content }] }),
    });
    return {
      status: response.status,
      cache: response.headers.get('x-model-router-cache'),
      body: (await response.json()) as { choices: { message: { content: string } }[] },
    };
  };

  it('serves on one replica what the other stored, with one provider call', async () => {
    const before = fake.requests.count();
    const first = await chat(replicas[0]!, 'shared across replicas');
    const second = await chat(replicas[1]!, 'shared across replicas');
    expect([first.cache, second.cache]).toEqual(['miss', 'hit']);
    expect(second.body.choices[0]!.message.content).toBe(first.body.choices[0]!.message.content);
    expect(fake.requests.count() - before).toBe(1);
  });

  it('misses, and still answers, while Redis is down', async () => {
    await chat(replicas[0]!, 'asked before the outage');
    await redis.kill();
    try {
      const during = await chat(replicas[1]!, 'asked before the outage');
      expect(during.status).toBe(200);
      expect(during.cache).toBe('miss');
    } finally {
      await redis.restart();
    }
  });
});
