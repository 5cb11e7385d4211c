import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { ModelRouterRegistry } from '../../../src/nest/module/model-router-registry.js';
import type { RedisRouteStateStore } from '../../../src/redis/redis-route-state-store.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { waitFor, waitForAsync } from '../../integration/redis/redis-fixtures.js';
import {
  isRedisServerAvailable,
  startRedisServer,
  type RedisServer,
} from '../../support/redis-server.js';
import { startGateway, type RunningGateway } from './gateway-harness.js';
import { KEYS } from './team-support.js';

const FIXTURE = new URL('./fixtures/redis-faults.yaml', import.meta.url).pathname;
const PASSWORD = 'redis-faults-Pw-9d41c2';

class RecordingLogger implements LoggerService {
  readonly lines: string[] = [];
  log = (...parts: unknown[]) => this.lines.push(parts.map(String).join(' '));
  warn = this.log;
  error = this.log;
  debug = this.log;
  verbose = this.log;
}

/** A small steady load of chat calls from the official client: two at a time, each one new. */
class Load {
  served = 0;
  readonly failures: string[] = [];
  private running = true;
  private readonly loops: Promise<void>[];
  private sequence = 0;

  constructor(private readonly gateway: RunningGateway) {
    this.loops = [this.loop(), this.loop()];
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        // a call that waited on Redis would show as a timeout here, not as a hung test
        const answer = await this.gateway.client.chat.completions.create(
          { model: 'auto', messages: [{ role: 'user', content: `call ${this.sequence++}` }] },
          { timeout: 5_000 },
        );
        if (!answer.choices[0]?.message.content) this.failures.push('an empty answer');
        this.served++;
      } catch (error) {
        this.failures.push(String(error));
      }
    }
  }

  /** Resolves once `count` more calls have been answered. */
  async serves(count: number): Promise<void> {
    const target = this.served + count;
    await waitFor(
      `${count} calls`,
      () => this.served >= target || this.failures.length > 0,
      20_000,
    );
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

(isRedisServerAvailable() ? describe : describe.skip)('the gateway when Redis misbehaves', () => {
  const logger = new RecordingLogger();
  let redis: RedisServer;
  let fake: FakeProvider;
  let gateway: RunningGateway;
  let admin: Redis;
  let store: RedisRouteStateStore;

  beforeAll(async () => {
    redis = await startRedisServer({ password: PASSWORD });
    fake = await FakeProvider.start({ apiKey: KEYS.upstream });
    gateway = await startGateway({
      config: FIXTURE,
      env: { FAKE_BASE_URL: fake.openaiBaseURL, FAKE_API_KEY: KEYS.upstream, REDIS_URL: redis.url },
      metricsRegistry: new Registry(),
      logger,
      accessLog: false,
    });
    admin = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: null });
    await admin.connect();
    store = gateway.app.get(ModelRouterRegistry, { strict: false })
      .stateStore as RedisRouteStateStore;
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    admin?.disconnect();
    await fake?.close();
    await redis?.stop();
  });

  const health = async () => {
    const response = await fetch(`${gateway.url}/health`);
    const body = (await response.json()) as {
      details?: { 'model-router'?: { stateStore?: { shared?: boolean; lastError?: string } } };
    };
    return { status: response.status, stateStore: body.details?.['model-router']?.stateStore };
  };
  const shared = () => waitFor('the store to share again', () => store.isShared(), 15_000);
  type Queued = { commandQueue: { length: number } };
  /** Commands sent and not answered, on the store's and the cache's connections. */
  const pending = () => {
    const registry = gateway.app.get(ModelRouterRegistry, { strict: false });
    const cache = registry.cache!.cache.store as unknown as { redis: Queued };
    const command = (store as unknown as { sharing: { command: Queued } }).sharing.command;
    return command.commandQueue.length + cache.redis.commandQueue.length;
  };

  /** Runs `fault` under load, checks every call was served, and that sharing resumes. */
  async function underLoad(fault: (load: Load) => Promise<void>): Promise<Load> {
    await shared();
    const load = new Load(gateway);
    try {
      await load.serves(5);
      await fault(load);
      await shared();
      await load.serves(5);
    } finally {
      await load.stop();
    }
    expect(load.failures).toEqual([]);
    return load;
  }

  it('serves every call while Redis is frozen (SIGSTOP), and shares again after SIGCONT', async () => {
    const pid = Number(/process_id:(\d+)/.exec(await admin.info('server'))![1]);
    await underLoad(async (load) => {
      process.kill(pid, 'SIGSTOP');
      try {
        await waitFor('the store to notice', () => !store.isShared(), 10_000);
        await load.serves(40);
        const during = await health();
        expect(during.status).toBe(200);
        expect(during.stateStore).toMatchObject({ status: 'degraded', shared: false });
        expect(during.stateStore?.lastError).toMatch(/timed out/);
        expect((await fetch(`${gateway.url}/router/status`)).status).toBe(200);
        // 40 calls while frozen left no pile of unanswered commands behind (each a few at most)
        expect(pending()).toBeLessThan(8);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
    });
  }, 60_000);
});
