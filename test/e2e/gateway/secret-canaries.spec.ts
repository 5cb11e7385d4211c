import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { loadGatewayConfig } from '../../../apps/gateway/src/config/load-gateway-config.js';
import { mapRoutingEvent } from '../../../src/nest/events/map-routing-event.js';
import type { ChatInterceptor } from '../../../src/index.js';
import { FakeProvider } from '../../../src/testing/index.js';
import {
  isRedisServerAvailable,
  type RedisServer,
  startRedisServer,
} from '../../support/redis-server.js';
import { startGateway, type RunningGateway } from './gateway-harness.js';

/** Every secret that goes through the configuration; none may come out anywhere. */
const CANARIES = {
  clientKey: 'sk-canary-client-7f3a9e11c2d4b5a6',
  adminKey: 'sk-canary-admin-0d9c8b7a6f5e4d3c',
  upstreamKey: 'sk-canary-upstream-5b4a3c2d1e0f9a8b',
  urlPassword: 'canary-url-pass-c0ffee42d00d',
  redisPassword: 'canary-redis-pass-ba5eba11f00d',
};

const YAML = `
providers:
  fake: { type: openai, baseURL: '\${FAKE_BASE_URL}', apiKey: '\${GOOD_KEY}', resilience: false }
  # the fake provider's 401 echoes the key it was sent, as real APIs do
  leaky: { type: openai, baseURL: '\${FAKE_BASE_URL}', apiKey: '\${UPSTREAM_KEY}', resilience: false }
  closed: { type: openai, baseURL: '\${CLOSED_URL}', apiKey: '\${UPSTREAM_KEY}', resilience: false }
models:
  ok: { provider: fake, model: gpt-4o-mini }
  rejected: { provider: leaky, model: gpt-4o-mini }
  refused: { provider: closed, model: m }
  hung: { provider: fake, model: gpt-fault-hang, resilience: { retry: { maxAttempts: 1 }, timeouts: { attemptMs: 150 } } }
routers:
  main: { models: [rejected, refused, hung, ok] }
  broken: { models: [rejected, refused, hung] }
state: { type: redis, url: '\${REDIS_URL}' }
auth:
  keys: [{ name: team, key: '\${CLIENT_KEY}', providerModels: true, rpm: 1000 }]
  adminKeys: [{ name: ops, key: '\${ADMIN_KEY}' }]
`;

/** Records everything the application logs, at every level. */
class RecordingLogger implements LoggerService {
  readonly lines: string[] = [];
  log = (...args: unknown[]) => this.record(args);
  error = (...args: unknown[]) => this.record(args);
  warn = (...args: unknown[]) => this.record(args);
  debug = (...args: unknown[]) => this.record(args);
  verbose = (...args: unknown[]) => this.record(args);
  fatal = (...args: unknown[]) => this.record(args);
  private record(args: unknown[]): void {
    this.lines.push(
      args
        .map((arg) =>
          arg instanceof Error
            ? `${arg.message} ${arg.stack}`
            : typeof arg === 'string'
              ? arg
              : JSON.stringify(arg),
        )
        .join(' '),
    );
  }
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

it('a baseURL with a password is refused at start-up without quoting it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-canaries-'));
  const path = join(dir, 'credentialed.yaml');
  writeFileSync(
    path,
    `providers:\n  gone: { type: openai, baseURL: 'http://user:${CANARIES.urlPassword}@127.0.0.1:1/v1', apiKey: k-123456 }\n` +
      'models:\n  m: { provider: gone, model: m }\nrouters:\n  main: { models: [m] }\n',
  );
  const error = await loadGatewayConfig(path, { env: {} }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toContain('must not include credentials');
  expect(`${(error as Error).message} ${(error as Error).stack}`).not.toContain(
    CANARIES.urlPassword,
  );
});

(isRedisServerAvailable() ? describe : describe.skip)('no secret comes out', () => {
  const logger = new RecordingLogger();
  const accessLines: string[] = [];
  const events: string[] = [];
  const answers: string[] = [];
  let fake: FakeProvider;
  let redis: RedisServer;
  let gateway: RunningGateway;

  const call = async (path: string, init: RequestInit & { key?: string } = {}) => {
    const { key, ...rest } = init;
    const answer = await fetch(`${gateway.url}${path}`, {
      ...rest,
      headers: {
        'content-type': 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(rest.headers as Record<string, string>),
      },
    });
    const body = await answer.text();
    answers.push(`${answer.status} ${JSON.stringify([...answer.headers])} ${body}`);
    return { status: answer.status, body };
  };
  const chat = (model: string, extra: Record<string, unknown> = {}, key = CANARIES.clientKey) =>
    call('/v1/chat/completions', {
      method: 'POST',
      key,
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], ...extra }),
    });

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: 'good-upstream-key-not-a-canary' });
    redis = await startRedisServer({ password: CANARIES.redisPassword });
    const dir = mkdtempSync(join(tmpdir(), 'gateway-canaries-'));
    const path = join(dir, 'canaries.yaml');
    writeFileSync(path, YAML);
    const config = await loadGatewayConfig(path, {
      env: {
        FAKE_BASE_URL: fake.openaiBaseURL,
        GOOD_KEY: 'good-upstream-key-not-a-canary',
        UPSTREAM_KEY: CANARIES.upstreamKey,
        // a secret in the query, as some gateways take their key
        CLOSED_URL: `http://127.0.0.1:${await closedPort()}/v1?api_key=${CANARIES.urlPassword}`,
        REDIS_URL: `redis://:${CANARIES.redisPassword}@127.0.0.1:${redis.port}`,
        CLIENT_KEY: CANARIES.clientKey,
        ADMIN_KEY: CANARIES.adminKey,
      },
    });
    // the routing events of every call, as the Nest event payloads carry them
    const recorder: ChatInterceptor = {
      intercept(context, next) {
        context.observe((event) => {
          events.push(JSON.stringify(mapRoutingEvent(event, context.routerName ?? '')));
          const error = (event as { error?: unknown }).error;
          if (error instanceof Error) events.push(`${error.name}: ${error.message}`);
        });
        return next.handle();
      },
    };
    config.module.interceptors = [...(config.module.interceptors ?? []), recorder];
    gateway = await startGateway({
      config,
      logger,
      accessLog: { write: (line) => accessLines.push(line), json: true },
      metricsRegistry: new Registry(),
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await redis?.stop();
    await fake?.close();
  });

  it('through failing calls, events, health, metrics, access logs and error bodies', async () => {
    // a failover over a 401 that echoes the key, a refused connection and a timeout
    expect((await chat('main')).status).toBe(200);
    expect((await chat('main', { stream: true })).status).toBe(200);
    const failed = await chat('broken');
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.body).toMatch(/401/);
    expect(failed.body).toMatch(/could not connect|refused/);
    expect(failed.body).toMatch(/timeout/);
    expect((await chat('broken', { stream: true })).status).toBeGreaterThanOrEqual(500);
    expect((await chat('rejected')).status).toBeGreaterThanOrEqual(400);
    expect((await chat('leaky/gpt-4o-mini')).status).toBeGreaterThanOrEqual(400);
    expect((await chat('closed/m', { stream: true })).status).toBeGreaterThanOrEqual(400);
    // wrong keys that resemble the real ones
    expect((await chat('main', {}, `${CANARIES.clientKey}x`)).status).toBe(401);
    expect((await chat('main', {}, CANARIES.clientKey.slice(0, -1))).status).toBe(401);
    expect(
      (await call('/v1/models', { headers: { 'x-api-key': `${CANARIES.adminKey} ` } })).status,
    ).toBe(200);
    for (const path of [
      '/health',
      '/metrics',
      '/v1/models',
      '/v1/key',
      '/router/status',
      '/status',
    ]) {
      await call(path, { key: CANARIES.adminKey });
      await call(path, { key: CANARIES.clientKey });
      await call(path);
    }
    // Redis down: calls still served, health says why, nothing leaks
    await redis.kill();
    expect((await chat('main')).status).toBe(200);
    expect((await call('/health', { key: CANARIES.adminKey })).body).toContain('stateStore');
    await call('/metrics', { key: CANARIES.adminKey });
    // the status shows every failure's reason: scrubbed of the keys the errors carried
    const status = await call('/router/status', { key: CANARIES.adminKey });
    expect(status.status).toBe(200);
    expect(status.body).toMatch(/"lastError"/);
    expect(status.body).toContain('"failovers"');
    expect(status.body).toContain('"keys":[{"name":"team"');

    const everything = {
      logs: logger.lines.join('\n'),
      accessLog: accessLines.join('\n'),
      events: events.join('\n'),
      answers: answers.join('\n'),
    };
    expect(everything.accessLog).toContain('"key":"team"');
    expect(everything.events).toContain('gpt-4o-mini');
    for (const [where, text] of Object.entries(everything)) {
      for (const [name, canary] of Object.entries(CANARIES)) {
        for (const spelling of [canary, encodeURIComponent(canary), canary.slice(4, -4)]) {
          expect([where, name, text.includes(spelling)]).toEqual([where, name, false]);
        }
      }
    }
  });
});
