import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { CLOSED_CIRCUIT, type CircuitRecord } from '../../../src/core/state/route-state-store.js';
import type { RedisRouteStateStore } from '../../../src/redis/redis-route-state-store.js';
import type { RouteStateStatusEvent } from '../../../src/redis/redis-store-status.js';
import { RedisRouteStateStoreException } from '../../../src/redis/redis-route-state-store-exception.js';
import { useRedisStores, waitFor, waitForAsync } from './redis-fixtures.js';
import { TcpProxy } from './tcp-proxy.js';
import { RedisKeySpace } from '../../../src/redis/redis-key-space.js';
import { RedisResponseCacheStore } from '../../../src/redis/redis-response-cache-store.js';

const keysOf = (prefix: string) => new RedisKeySpace(prefix);

const env = useRedisStores();

/** Fast reconnects, so a restart is noticed quickly; the defaults are for production. */
const FAST = { maxReconnectDelayMs: 50, commandTimeoutMs: 300, connectTimeoutMs: 500 };

function statusesOf(store: RedisRouteStateStore): RouteStateStatusEvent[] {
  const events: RouteStateStatusEvent[] = [];
  store.onStatusChange((event) => events.push(event));
  return events;
}

/** What a replica does per request: read circuits, count tokens, now and then change a circuit. */
class Traffic {
  completed = 0;
  completedWhileLocal = 0;
  tokensAdded = 0;
  readonly errors: unknown[] = [];
  private running = true;
  private readonly done: Promise<void>;

  constructor(
    private readonly store: RedisRouteStateStore,
    private readonly name: string,
  ) {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        this.store.getCircuit('group/traffic');
        await this.store.addTokens(`group/traffic-${this.name}`, 3);
        this.tokensAdded += 3;
        if (this.completed % 10 === 0) {
          const current = this.store.getCircuit('group/traffic');
          await this.store.compareAndSetCircuit('group/traffic', current, {
            ...current,
            failures: current.failures + 1,
          });
        }
        this.completed++;
        if (!this.store.isShared()) this.completedWhileLocal++;
      } catch (error) {
        this.errors.push(error);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

describe('RedisRouteStateStore when Redis goes away', () => {
  it('keeps answering locally while Redis is down, then resyncs and shares again', async () => {
    const a = await env.stores.open(FAST);
    const b = await env.stores.open(FAST);
    const statusA = statusesOf(a);
    const statusB = statusesOf(b);
    const before = await a.compareAndSetCircuit('group/m1', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      failures: 1,
    });
    await a.addTokens('group/m1', 100);
    await b.addTokens('group/m1', 50);
    await waitFor('both to see the shared state', () =>
      [a, b].every((s) => s.getTokens('group/m1') === 150 && s.getCircuit('group/m1').version > 0),
    );
    const trafficA = new Traffic(a, 'a');
    const trafficB = new Traffic(b, 'b');
    await waitFor('traffic to run', () => trafficA.completed > 20 && trafficB.completed > 20);

    await env.redis.kill();

    await waitFor('both to report local-only', () => !a.isShared() && !b.isShared());
    expect(statusA.at(-1)).toMatchObject({ status: 'local-only' });
    expect(statusB.at(-1)).toMatchObject({ status: 'local-only' });
    expect(a.describe().status).toBe('local-only');
    // Every operation still answers, from local state.
    const opened = await a.compareAndSetCircuit('group/m2', a.getCircuit('group/m2'), {
      ...CLOSED_CIRCUIT,
      state: 'open',
      failures: 1,
      cooldownUntil: Date.now() + 60_000,
    });
    expect(opened.ok).toBe(true);
    expect(a.getCircuit('group/m2').state).toBe('open');
    expect(b.getCircuit('group/m2').state).toBe('closed'); // not shared while Redis is away
    expect(await a.addTokens('group/m1', 30)).toBe(180);
    expect(await b.addTokens('group/m1', 20)).toBe(170);
    await b.setSticky('conversation-1', { route: 'simple', model: 'local' }, 60_000);
    // Both change the same circuit while apart: after the resync they must agree.
    await a.compareAndSetCircuit('group/m3', CLOSED_CIRCUIT, { ...CLOSED_CIRCUIT, failures: 1 });
    await b.compareAndSetCircuit('group/m3', CLOSED_CIRCUIT, { ...CLOSED_CIRCUIT, failures: 2 });
    await waitFor('traffic to go on locally', () =>
      [trafficA, trafficB].every((t) => t.completedWhileLocal > 20),
    );

    await env.redis.restart(); // same port, empty: as after a crash without persistence

    await waitFor('both to share again', () => a.isShared() && b.isShared(), 10_000);
    await trafficA.stop();
    await trafficB.stop();
    expect(statusA.at(-1)).toMatchObject({ status: 'shared' });
    expect(statusB.at(-1)).toMatchObject({ status: 'shared' });
    expect(trafficA.errors).toEqual([]);
    expect(trafficB.errors).toEqual([]);
    // The circuit opened locally on A reaches B.
    await waitFor('B to see the circuit A opened during the outage', () =>
      b.getCircuit('group/m2').state === 'open' ? true : undefined,
    );
    // State from before the outage is put back, not lost with Redis's data.
    expect(b.getCircuit('group/m1')).toMatchObject({ failures: before.record.failures });
    // Counters: the totals from before plus every increment made during the outage.
    await waitFor('both to see the summed counters', () =>
      [a, b].every(
        (s) =>
          s.getTokens('group/m1') === 200 &&
          s.getTokens('group/traffic-a') === trafficA.tokensAdded &&
          s.getTokens('group/traffic-b') === trafficB.tokensAdded,
      ),
    );
    expect(a.getSticky('conversation-1')).toEqual({ route: 'simple', model: 'local' });
    const agreed = await waitFor('both to agree on the circuit both changed', () => {
      const fromA = a.getCircuit('group/m3');
      const fromB = b.getCircuit('group/m3');
      return fromA.version === fromB.version && fromA.version > 0 ? fromA : undefined;
    });
    expect([1, 2]).toContain(agreed.failures);
    expect(b.getCircuit('group/m3')).toEqual(agreed);
    await waitFor(
      'both to agree on the circuit the traffic changed',
      () => a.getCircuit('group/traffic').version === b.getCircuit('group/traffic').version,
    );
    expect(a.getCircuit('group/traffic')).toEqual(b.getCircuit('group/traffic'));
  });

  it('puts a change made while Redis was down on top of the restored state', async () => {
    const a = await env.stores.open(FAST);
    const b = await env.stores.open(FAST);
    const seenByB: CircuitRecord[] = [];
    b.onCircuitChange((key, record) => {
      if (key === 'group/m1') seenByB.push(record);
    });
    const first = await a.compareAndSetCircuit('group/m1', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      failures: 1,
    });
    await waitFor('B to see the first change', () => seenByB.length === 1);

    await env.redis.kill();
    await waitFor('A to go local', () => !a.isShared());
    const local = await a.compareAndSetCircuit('group/m1', first.record, {
      ...first.record,
      state: 'open',
      failures: 2,
    });
    expect(local.ok).toBe(true);
    await env.redis.restart();

    await waitFor('A and B to share again', () => a.isShared() && b.isShared(), 10_000);
    const shared = await waitFor('B to receive the change A made while away', () =>
      seenByB.find((record) => record.state === 'open'),
    );
    expect(shared).toMatchObject({ state: 'open', failures: 2 });
    expect(a.getCircuit('group/m1')).toEqual(shared);
  });

  it('puts the state back when Redis is flushed under connected replicas', async () => {
    const a = await env.stores.open(FAST);
    const b = await env.stores.open(FAST);
    const open = await a.compareAndSetCircuit('group/m1', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      state: 'open',
      cooldownUntil: Date.now() + 60_000,
    });
    await a.addTokens('group/m1', 40);
    await b.addTokens('group/m1', 2);
    await waitFor('both to count 42', () => [a, b].every((s) => s.getTokens('group/m1') === 42));

    const raw = new Redis(env.redis.url);
    try {
      await raw.flushall();
      // The periodic refresh notices the lost data set; the resync restores it.
      await waitForAsync(
        async () => (await raw.exists(keysOf(env.stores.prefix).circuit('group/m1'))) === 1,
      );
      await waitForAsync(
        async () => Number(await raw.hget(keysOf(env.stores.prefix).tokens, 'group/m1')) === 42,
      );
    } finally {
      raw.disconnect();
    }
    expect(a.getCircuit('group/m1')).toMatchObject({ state: 'open', version: open.record.version });
    expect(b.getCircuit('group/m1')).toEqual(a.getCircuit('group/m1'));
    await waitFor('both to share again', () => a.isShared() && b.isShared());
    expect([a, b].map((s) => s.getTokens('group/m1'))).toEqual([42, 42]);
    const late = await env.stores.open(FAST);
    expect(late.getCircuit('group/m1')).toEqual(a.getCircuit('group/m1'));
  });

  it('starts on local state when Redis is down at start-up, and shares once it is up', async () => {
    await env.redis.kill();

    const a = await env.stores.open(FAST);

    expect(a.isShared()).toBe(false);
    const opened = await a.compareAndSetCircuit('group/m1', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      state: 'open',
    });
    expect(opened.ok).toBe(true);
    expect(env.stores.logger.lines.some((line) => line.includes('not reachable'))).toBe(true);

    await env.redis.restart();
    await waitFor('A to share', () => a.isShared(), 10_000);
    const b = await env.stores.open(FAST);
    expect(b.getCircuit('group/m1').state).toBe('open');
  });

  it('refuses to start without Redis when Redis is required', async () => {
    await env.redis.kill();

    const attempt = env.stores.open({ ...FAST, connectTimeoutMs: 200, requireRedisOnStart: true });

    await expect(attempt).rejects.toThrow(RedisRouteStateStoreException);
    await expect(attempt).rejects.toThrow(
      /could not share route state through Redis at redis:\/\//,
    );
  });
});

describe('RedisRouteStateStore when one replica loses Redis (a partition)', () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    if (!env.redis.running) await env.redis.restart();
    proxy = await TcpProxy.start(env.redis.port);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('writes back local changes nobody else made, and lets Redis win conflicts', async () => {
    const a = await env.stores.open({ ...FAST, url: `redis://127.0.0.1:${proxy.port}` });
    const b = await env.stores.open(FAST);
    const x = await b.compareAndSetCircuit('group/x', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      failures: 1,
    });
    const y = await b.compareAndSetCircuit('group/y', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      failures: 1,
    });
    await b.addTokens('group/x', 10);
    await waitFor(
      'A to see both circuits and the tokens',
      () => a.getCircuit('group/y').version === y.record.version && a.getTokens('group/x') === 10,
    );

    proxy.cut();
    await waitFor('A to go local', () => !a.isShared());
    expect(b.isShared()).toBe(true);
    // Both change x; only A changes y.
    await a.compareAndSetCircuit('group/x', x.record, { ...x.record, state: 'open', failures: 5 });
    await a.compareAndSetCircuit('group/y', y.record, { ...y.record, state: 'open', failures: 2 });
    await a.addTokens('group/x', 7);
    const xByB = await b.compareAndSetCircuit('group/x', x.record, { ...x.record, failures: 3 });
    expect(xByB.ok).toBe(true);
    proxy.heal();

    await waitFor('A to share again', () => a.isShared(), 10_000);
    // Nobody else changed y: A's change is written back and reaches B.
    await waitFor('B to see y opened by A', () => b.getCircuit('group/y').state === 'open');
    expect(b.getCircuit('group/y')).toMatchObject({ failures: 2 });
    expect(a.getCircuit('group/y')).toEqual(b.getCircuit('group/y'));
    // B changed x in Redis meanwhile: Redis wins, A's local change is dropped.
    expect(a.getCircuit('group/x')).toEqual(xByB.record);
    // A's increment made while cut off is added, not lost.
    await waitFor('both to count 17 tokens', () =>
      [a, b].every((s) => s.getTokens('group/x') === 17),
    );
  });

  it('never waits on a Redis that stops answering', async () => {
    const logger = env.stores.logger;
    const a = await env.stores.open({ ...FAST, url: `redis://127.0.0.1:${proxy.port}` });

    proxy.stall();
    // Each call returns (the command times out, the store carries on locally).
    const result = await a.compareAndSetCircuit('group/z', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      state: 'open',
    });
    const total = await a.addTokens('group/z', 5);

    expect(result.ok).toBe(true);
    expect(a.getCircuit('group/z').state).toBe('open');
    expect(total).toBe(5);
    expect(a.isShared()).toBe(false);
    expect(a.describe().lastError).toMatch(/timed out/i);
    expect(logger.lines.some((line) => line.includes('serving route state locally'))).toBe(true);

    proxy.heal();
    await waitFor('A to share again', () => a.isShared(), 10_000);
    const late = await env.stores.open(FAST);
    expect(late.getCircuit('group/z').state).toBe('open');
  });
  it('a cache on a Redis that hangs waits for one lookup, not every one, and queues none', async () => {
    const cache = await RedisResponseCacheStore.connect({
      url: `redis://127.0.0.1:${proxy.port}`,
      keyPrefix: env.stores.prefix,
      // the lookup before the stall must answer within it on a busy machine
      commandTimeoutMs: 300,
    });
    /** Lookups sent and not answered (a reconnect's own handshake may be queued too). */
    const queuedLookups = () =>
      (
        cache as unknown as {
          redis: { commandQueue: { toArray(): { command: { name: string } }[] } };
        }
      ).redis.commandQueue
        .toArray()
        .filter(({ command }) => command.name === 'get').length;
    try {
      expect(await cache.get('before')).toBeUndefined();
      proxy.stall();
      await expect(cache.get('first')).rejects.toThrow('Command timed out');
      // the hung connection was dropped: the next lookups fail at once (a miss), none waits
      for (const key of ['second', 'third']) {
        await expect(cache.get(key)).rejects.not.toThrow('Command timed out');
      }
      // the dropped connection let go of them (before, each stayed queued until Redis answered)
      await waitFor('no lookup to stay queued', () => queuedLookups() === 0, 2_000);
      proxy.heal();
      await waitForAsync(async () => (await cache.get('after').catch(() => null)) === undefined);
    } finally {
      proxy.heal();
      await cache.close();
    }
  });
});
