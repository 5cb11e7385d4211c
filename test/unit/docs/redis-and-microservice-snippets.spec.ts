// The snippets of docs/redis.md (on a real redis-server) and docs/microservice.md (a router
// service on loopback TCP and an API service calling it), run as written against the project's
// FakeProvider.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { getRouterToken, type ChatModel, userMessage } from 'nest-model-router';
import type { RedisRouteStateStore } from 'nest-model-router/redis';
import { parseModelRouterConfig } from 'nest-model-router/config';
import { FakeProvider } from 'nest-model-router/testing';
import { freeLoopbackPort } from '../../e2e/microservice/support/router-service.js';
import { type RedisServer, startRedisServer } from '../../support/redis-server.js';
import { snippetPath, writeSnippets } from './support/markdown.js';

let fake: FakeProvider;

beforeAll(async () => {
  writeSnippets('docs/redis.md');
  writeSnippets('docs/microservice.md');
  fake = await FakeProvider.start();
  process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
  process.env.OPENAI_API_KEY = 'test-key';
});

afterAll(async () => {
  await fake?.close();
});

describe('docs/redis.md', () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedisServer();
    process.env.REDIS_URL = redis.url;
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it('shares the module state through Redis', async () => {
    const { SharedStateModule, stateStore } = (await import(
      snippetPath('docs/redis.md', 'shared-state.module.ts')
    )) as { SharedStateModule: new () => unknown; stateStore: RedisRouteStateStore };
    const moduleRef = await Test.createTestingModule({ imports: [SharedStateModule] }).compile();
    try {
      expect(stateStore.isShared()).toBe(true);
      const chat = moduleRef.get<ChatModel>(getRouterToken('chat'));
      const answer = await chat.chat({ messages: [userMessage('hello')] });
      expect(answer.aiMessage.text).toBe('You said: hello (model gpt-4o-mini)');
    } finally {
      await moduleRef.close();
      await stateStore.close();
    }
  });

  it('configures a Cluster in YAML and a Sentinel group in code', async () => {
    const yaml = readFileSync(snippetPath('docs/redis.md', 'config/model-router.yaml'), 'utf8');
    const config = parseModelRouterConfig(yaml, {
      env: { OPENAI_API_KEY: 'sk-test', REDIS_PASSWORD: 'pw-from-env' },
    });
    expect(config.state).toEqual({
      type: 'redis',
      cluster: {
        nodes: [
          { host: 'redis-0.internal', port: 6379 },
          { host: 'redis-1.internal', port: 6379 },
        ],
        password: 'pw-from-env',
        tls: true,
      },
    });
    process.env.REDIS_PASSWORD = 'pw-from-env';
    const { sentinelStore } = (await import(
      snippetPath('docs/redis.md', 'redis-topologies.ts')
    )) as {
      sentinelStore: RedisRouteStateStore;
    };
    expect(sentinelStore.describe().url).toBe(
      'redis-sentinel://sentinel-0.internal:26379,sentinel-1.internal:26379,' +
        'sentinel-2.internal:26379/mymaster',
    );
    expect(JSON.stringify(sentinelStore)).not.toContain('pw-from-env');
    await sentinelStore.close();
  });
});

describe('docs/microservice.md', () => {
  let service: INestMicroservice;
  let api: INestApplication;
  let url: string;

  beforeAll(async () => {
    const port = await freeLoopbackPort();
    Object.assign(process.env, {
      HOST: '127.0.0.1',
      PORT: String(port),
      ROUTER_SERVICE_HOST: '127.0.0.1',
      ROUTER_SERVICE_PORT: String(port),
    });
    ({ service } = (await import(
      snippetPath('docs/microservice.md', 'router-service/main.ts')
    )) as {
      service: INestMicroservice;
    });
    const { ApiModule } = (await import(
      snippetPath('docs/microservice.md', 'api-service/api.module.ts')
    )) as { ApiModule: new () => unknown };
    api = await NestFactory.create(ApiModule, { logger: false });
    await api.listen(0, '127.0.0.1');
    url = await api.getUrl();
  });

  afterAll(async () => {
    await api?.close();
    await service?.close();
  });

  const post = (body: unknown) =>
    fetch(`${url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('the API service answers through the router service, naming the route', async () => {
    const res = await post({
      messages: [{ role: 'user', content: 'How do I reset my password?' }],
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      text: 'You said: How do I reset my password? (model gpt-4o-mini)',
      route: 'faq',
    });
  });

  it('a body the DTO refuses never reaches the router service', async () => {
    const before = fake.requests.count();
    const res = await post({ messages: [] });
    expect(res.status).toBe(400);
    expect(fake.requests.count()).toBe(before);
  });
});
