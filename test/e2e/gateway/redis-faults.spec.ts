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
const NEW_PASSWORD = 'redis-faults-NewPw-73be0a';
/** `DEBUG SLEEP` is off by default since Redis 7. */
const DEBUG = ['--enable-debug-command', 'yes'];

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
    redis = await startRedisServer({ password: PASSWORD, args: DEBUG });
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
        // 40 calls while frozen left no pile of unanswered commands behind: what is left is a
        // reconnect's handshake and the commands sent before the first timeout (113 without
        // the reset after a timeout)
        expect(pending()).toBeLessThan(20);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
    });
  }, 60_000);

  /** Runs a command that hangs Redis on a connection of its own, under load. */
  async function hangs(...command: string[]): Promise<void> {
    const own = new Redis(redis.url, { lazyConnect: true });
    await own.connect();
    try {
      await underLoad(async (load) => {
        const hung = own.call(command[0]!, ...command.slice(1));
        await waitFor('the store to notice', () => !store.isShared(), 10_000);
        await load.serves(20);
        expect(pending()).toBeLessThan(20);
        await hung;
      });
    } finally {
      own.disconnect();
    }
  }

  // 2 s rather than a fault bench's 5 s: anything past the 200 ms command timeout is the same case
  it('serves every call through DEBUG SLEEP, and shares again after', async () => {
    await hangs('DEBUG', 'SLEEP', '2');
  }, 60_000);

  it('serves every call through CLIENT PAUSE ALL, and shares again after', async () => {
    await hangs('CLIENT', 'PAUSE', '2000', 'ALL');
    // the pause ends by itself: the reply came at once, the store's commands waited
    await waitForAsync(async () => (await admin.ping()) === 'PONG', 10_000);
  }, 60_000);

  it('serves every call while Redis is killed, and shares again once it restarts', async () => {
    await underLoad(async (load) => {
      await redis.kill();
      await waitFor('the store to notice', () => !store.isShared(), 10_000);
      await load.serves(20);
      const during = await health();
      expect(during.status).toBe(200);
      expect(during.stateStore).toMatchObject({ status: 'degraded', shared: false });
      expect((await fetch(`${gateway.url}/router/status`)).status).toBe(200);
      await redis.restart();
    });
    // Redis came back empty: the replica wrote its spend back, and Redis holds what it counted
    const spent = gateway.app
      .get(ModelRouterRegistry, { strict: false })
      .budgets.spentUsd('auto-hourly');
    expect(spent).toBeGreaterThan(0);
    const start = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    await waitForAsync(async () => {
      const keys: string[] = [];
      const match = `model-router:window:*auto-hourly*${start}}`;
      for await (const found of admin.scanStream({ match, count: 1000 })) {
        keys.push(...(found as string[]));
      }
      const totals = await Promise.all(keys.map((key) => admin.get(key)));
      return (
        keys.length > 0 && totals.every((total) => Math.abs(Number(total) / 1e9 - spent) < 1e-9)
      );
    }, 10_000);
  }, 60_000);

  it('serves every call while Redis refuses writes (OOM), and shares again after', async () => {
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.set('filler', 'x'.repeat(2_000_000));
    await underLoad(async (load) => {
      await admin.config('SET', 'maxmemory', '1mb');
      try {
        await waitFor('the store to notice', () => !store.isShared(), 10_000);
        await load.serves(20);
        expect((await health()).stateStore?.lastError).toMatch(/^OOM/);
      } finally {
        await admin.config('SET', 'maxmemory', '0');
        await admin.del('filler');
      }
    });
  }, 60_000);

  it('keeps the old and new password out of sight when requirepass changes', async () => {
    const seen: string[] = [];
    await underLoad(async (load) => {
      await admin.config('SET', 'requirepass', NEW_PASSWORD);
      try {
        // existing connections stay authenticated: drop the gateway's (not this one)
        await admin.call('CLIENT', 'KILL', 'TYPE', 'normal');
        await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
        await waitFor('the store to notice', () => !store.isShared(), 10_000);
        await load.serves(20);
        await waitFor('a reconnect to be refused', () =>
          /WRONGPASS|NOAUTH|invalid username-password/.test(store.describe().lastError ?? ''),
        );
        seen.push(JSON.stringify(await health()));
        seen.push(await (await fetch(`${gateway.url}/router/status`)).text());
      } finally {
        await admin.config('SET', 'requirepass', PASSWORD);
      }
    });
    seen.push(...logger.lines, JSON.stringify(store.describe()));
    for (const text of seen) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(NEW_PASSWORD);
    }
  }, 60_000);

  it('keeps sharing through SCRIPT FLUSH: a NOSCRIPT is retried with the script', async () => {
    const changes: unknown[] = [];
    const off = store.onStatusChange((event) => changes.push(event));
    try {
      await underLoad(async (load) => {
        await admin.script('FLUSH');
        await load.serves(20);
      });
    } finally {
      off();
    }
    expect(changes).toEqual([]);
  }, 60_000);

  it('serves every call while a key of ours holds the wrong type, and names it', async () => {
    await underLoad(async (load) => {
      const windows: string[] = [];
      for await (const keys of admin.scanStream({ match: 'model-router:window:*', count: 1000 })) {
        windows.push(...(keys as string[]).filter((key) => !key.endsWith(':by')));
      }
      expect(windows.length).toBeGreaterThan(0);
      try {
        for (const key of windows) {
          // in one step: the gateway's next add would make the key a string again
          await admin.multi().del(key).rpush(key, 'left here by something else').exec();
        }
        await waitFor('the store to notice', () => !store.isShared(), 10_000);
        await load.serves(20);
        const said = logger.lines.filter((line) => line.includes('WRONGTYPE'));
        expect(said.length).toBeGreaterThan(0);
        // each line names a key that holds the wrong type: what to delete to recover
        for (const line of said)
          expect(windows.filter((key) => line.includes(key))).not.toEqual([]);
      } finally {
        await admin.del(...windows);
      }
    });
  }, 60_000);

  it('serves every call while Redis answers READONLY (a replica), and shares again after', async () => {
    const master = await startRedisServer({ password: PASSWORD });
    let readies = 0;
    const command = (store as unknown as { sharing: { command: Redis } }).sharing.command;
    const ready = () => readies++;
    command.on('ready', ready);
    try {
      await admin.config('SET', 'masterauth', PASSWORD);
      await underLoad(async (load) => {
        await admin.replicaof('127.0.0.1', master.port);
        try {
          await waitFor('the store to notice', () => !store.isShared(), 10_000);
          await load.serves(20);
          expect(store.describe().lastError).toMatch(/READONLY/);
          // it reconnects, as it must to follow a URL whose DNS name moved to the new master
          const reconnects = readies;
          await waitFor('a reconnect', () => readies > reconnects + 1, 10_000);
        } finally {
          await admin.replicaof('NO', 'ONE');
        }
      });
    } finally {
      command.off('ready', ready);
      await master.stop();
    }
  }, 60_000);

  it('serves every call from a Redis without EVALSHA (rename-command), and names it', async () => {
    await underLoad(async (load) => {
      // rename-command is start-up configuration: the same port, restarted without EVALSHA
      await redis.kill();
      const renamed = await startRedisServer({
        port: redis.port,
        password: PASSWORD,
        args: ['--rename-command', 'EVALSHA', ''],
      });
      try {
        await waitFor('the store to notice', () => !store.isShared(), 10_000);
        await waitFor('a resync to be refused', () =>
          /unknown command/.test(store.describe().lastError ?? ''),
        );
        await load.serves(20);
        expect((await health()).status).toBe(200);
      } finally {
        await renamed.kill();
        await redis.restart();
      }
    });
  }, 60_000);
});
