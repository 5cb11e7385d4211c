import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { Redis } from 'ioredis';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { InMemoryRouteStateStore } from '../../../src/core/state/in-memory-route-state-store.js';
import { RedisRouteStateStore } from '../../../src/redis/redis-route-state-store.js';
import type { RouteStateStatusEvent } from '../../../src/redis/redis-store-status.js';
import {
  checkRouteStateConfig,
  createRouteStateStore,
} from '../../../src/redis/route-state-store-config.js';
import { redactRedisUrl } from '../../../src/redis/redis-url.js';
import { CapturingLogger, useRedisStores, waitFor } from './redis-fixtures.js';

const PASSWORD = 'S3cret-pa55/word';
const env = useRedisStores({ password: PASSWORD });

/** Every way a secret could leak: message, stack, serialised fields, inspection. */
function everythingAbout(value: unknown): string {
  const parts = [inspect(value, { depth: 5 })];
  try {
    parts.push(JSON.stringify(value));
  } catch {
    // circular: inspect covers it
  }
  if (value instanceof Error) parts.push(value.message, value.stack ?? '', String(value.cause));
  return parts.join('\n');
}

function expectNoSecret(text: string): void {
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain(encodeURIComponent(PASSWORD));
}

describe('RedisRouteStateStore keeps the Redis password out of sight', () => {
  it('describes itself with a redacted URL, also when logged or serialised', async () => {
    const store = await env.stores.open();

    expect(store.isShared()).toBe(true); // the password worked
    expect(store.describe()).toEqual({
      type: 'redis',
      url: `redis://:***@127.0.0.1:${env.redis.port}`,
      keyPrefix: env.stores.prefix,
      status: 'shared',
    });
    expectNoSecret(everythingAbout(store));
    expectNoSecret(JSON.stringify(store.describe()));
  });

  it('redacts a store built from an ioredis client', async () => {
    const client = new Redis(env.redis.url, { lazyConnect: true });
    const logger = new CapturingLogger();
    const store = new RedisRouteStateStore({ client, logger, keyPrefix: 'client-test:' });
    env.stores.adopt(store);
    await store.connect();

    expect(store.isShared()).toBe(true);
    expect(store.describe().url).toBe(`redis://:***@127.0.0.1:${env.redis.port}/0`);
    expectNoSecret(everythingAbout(store));
    expect(client.status).toBe('wait'); // the caller's client is left alone
    client.disconnect();
  });

  it('keeps it out of errors, logs, status events and health when the password is wrong', async () => {
    const wrong = 'Wr0ng-pa55word';
    const logger = new CapturingLogger();
    const url = `redis://:${wrong}@127.0.0.1:${env.redis.port}`;

    const attempt = RedisRouteStateStore.connect({
      url,
      logger,
      // the refusal must arrive within it on a busy machine: cut before, the error is a timeout
      connectTimeoutMs: 1_000,
      requireRedisOnStart: true,
    });

    const error = await attempt.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    const text = everythingAbout(error);
    expect(text).toContain(`redis://:***@127.0.0.1:${env.redis.port}`);
    expect(text).toMatch(/WRONGPASS|invalid username-password/);
    expect(text).not.toContain(wrong);
    expect(logger.lines.join('\n')).not.toContain(wrong);
  });

  it('keeps it out of logs, status events and health during an outage', async () => {
    const store = await env.stores.open({ maxReconnectDelayMs: 50, commandTimeoutMs: 300 });
    const events: RouteStateStatusEvent[] = [];
    store.onStatusChange((event) => events.push(event));

    await env.redis.kill();
    await waitFor('the store to go local', () => !store.isShared());
    await store.addTokens('group/m1', 1);
    await env.redis.restart();
    await waitFor('the store to share again', () => store.isShared(), 10_000);

    expect(events.map((e) => e.status)).toEqual(['local-only', 'shared']);
    expect(events[0]!.reason).toBeDefined();
    expectNoSecret(everythingAbout(events));
    expectNoSecret(env.stores.logger.lines.join('\n'));
    expect(env.stores.logger.lines.join('\n')).toContain(':***@');
    expectNoSecret(everythingAbout(store.describe()));
  });
});

describe('redactRedisUrl', () => {
  it.each([
    ['redis://:pw1@host:6379/0', 'redis://:***@host:6379/0'],
    ['rediss://user:pw1@host:6380', 'rediss://user:***@host:6380'],
    ['redis://host:6379?password=pw1', 'redis://host:6379?password=***'],
    ['redis://host:6379', 'redis://host:6379'],
    ['not a url :pw1@', '<invalid redis url>'],
  ])('%s → %s', (url, expected) => {
    expect(redactRedisUrl(url)).toBe(expected);
  });
});

describe('route state configuration', () => {
  it('builds a connected Redis store from { type: redis, url, keyPrefix }', async () => {
    const store = await createRouteStateStore(
      { type: 'redis', url: env.redis.url, keyPrefix: 'from-config:' },
      { logger: new CapturingLogger() },
    );
    expect(store).toBeInstanceOf(RedisRouteStateStore);
    env.stores.adopt(store as RedisRouteStateStore);
    expect(store.isShared?.()).toBe(true);
    expect((store as RedisRouteStateStore).describe().keyPrefix).toBe('from-config:');
  });

  it('builds an in-memory store from { type: memory }', async () => {
    expect(await createRouteStateStore({ type: 'memory' })).toBeInstanceOf(InMemoryRouteStateStore);
  });

  it.each([
    [undefined, /^state must be an object/],
    [{ type: 'mongo' }, /state\.type must be 'redis' or 'memory', got "mongo"/],
    [{ type: 'redis' }, /state\.url is required/],
    [
      { type: 'redis', url: 'http://:pw1@host' },
      /state\.url must use the redis:\/\/ or rediss:\/\//,
    ],
    [{ type: 'redis', url: 'redis://:pw1@host:99999' }, /state\.url is not a valid URL/],
    [{ type: 'redis', url: 'redis://host', keyprefix: 'x' }, /state\.keyprefix is not an option/],
    [{ type: 'redis', url: 'redis://host', keyPrefix: '' }, /state\.keyPrefix must be a non-empty/],
    [{ type: 'redis', url: 'redis://host', ttlMs: -1 }, /state\.ttlMs must be a positive number/],
    [{ type: 'redis', url: 'redis://host/x' }, /state\.url has database 'x'/],
    [{ type: 'memory', url: 'redis://host' }, /state\.url is not an option of the memory/],
  ])('rejects %j naming the field', (config, message) => {
    let error: unknown;
    try {
      checkRouteStateConfig(config);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidConfigurationException);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('pw1');
  });
});

describe('RedisRouteStateStore log lines', () => {
  it('escape control characters: a circuit key from the channel cannot forge a line', async () => {
    const store = await env.stores.open();
    const raw = new Redis(env.redis.url);
    try {
      // circuit keys hold model names, which a gateway's client may choose
      const forged = 'group/evil\n[RedisRouteStateStore] forged line\u001b[2J';
      await raw.publish(
        `${env.stores.prefix}changes`,
        JSON.stringify({ t: 'c', k: forged, v: 1, p: 60_000, r: 'not a circuit' }),
      );
      await waitFor('the unreadable circuit to be logged', () =>
        env.stores.logger.lines.some((line) => line.includes('unreadable circuit')),
      );
    } finally {
      raw.disconnect();
    }

    const line = env.stores.logger.lines.find((entry) => entry.includes('unreadable circuit'))!;
    expect(line).not.toContain('\n');
    expect(line).not.toContain('\u001b');
    expect(line).toContain("'group/evil\\n[RedisRouteStateStore] forged line\\u001b[2J'");
    expect(store.isShared()).toBe(true);
  });
});
