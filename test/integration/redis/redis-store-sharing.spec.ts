import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { CLOSED_CIRCUIT } from '../../../src/core/state/route-state-store.js';
import { useRedisStores, waitFor } from './redis-fixtures.js';
import { RedisKeySpace } from '../../../src/redis/redis-key-space.js';

const keysOf = (prefix: string) => new RedisKeySpace(prefix);

const env = useRedisStores();

describe('RedisRouteStateStore sharing between two instances', () => {
  // a plain client to look at the keys, disconnected before the server stops
  let raw: Redis;
  beforeAll(() => {
    raw = new Redis(env.redis.url);
  });
  afterAll(() => {
    raw?.disconnect();
  });

  it('sums token counters across instances and shows local increments at once', async () => {
    const a = await env.stores.open();
    const b = await env.stores.open();

    const pending = a.addTokens('group/m1', 120);
    // Visible before Redis answers: concurrent dispatches balance on each other's reservations.
    expect(a.getTokens('group/m1')).toBe(120);
    await pending;

    await Promise.all([
      ...Array.from({ length: 50 }, () => a.addTokens('group/m1', 10)),
      ...Array.from({ length: 50 }, () => b.addTokens('group/m1', 7)),
      b.addTokens('group/m1', -20), // a released reservation
    ]);

    const expected = 120 + 50 * 10 + 50 * 7 - 20;
    await waitFor('both to see the sum', () =>
      [a, b].every((s) => s.getTokens('group/m1') === expected),
    );
    expect(Number(await raw.hget(keysOf(env.stores.prefix).tokens, 'group/m1'))).toBe(expected);
    // Fractional estimates add up without rounding drift.
    await a.addTokens('group/m2', 2.5);
    await b.addTokens('group/m2', -2.5);
    await waitFor('the fractions to cancel', () => a.getTokens('group/m2') === 0);
  });

  it('sends the increments of one event-loop turn to Redis as one per counter', async () => {
    const a = await env.stores.open();
    const increments = async () => {
      const stats = await raw.info('commandstats');
      return Number(/cmdstat_hincrbyfloat:calls=(\d+)/.exec(stats)?.[1] ?? 0);
    };
    const before = await increments();

    const totals = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) => a.addTokens(`group/m${i % 2}`, 1)),
    );

    expect(await increments()).toBe(before + 2);
    expect(totals.every((total) => total === 500)).toBe(true);
    expect(Number(await raw.hget(keysOf(env.stores.prefix).tokens, 'group/m0'))).toBe(500);
  });

  it('propagates a circuit opened through A to B (delay measured, not asserted)', async () => {
    const a = await env.stores.open();
    const b = await env.stores.open();
    let arrivedAt: number | undefined;
    b.onCircuitChange((key, record) => {
      if (key === 'group/m1' && record.state === 'open') arrivedAt = performance.now();
    });

    const sentAt = performance.now();
    await a.compareAndSetCircuit('group/m1', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      state: 'open',
      failures: 1,
      openedAt: Date.now(),
      cooldownUntil: Date.now() + 60_000,
    });

    await waitFor('B to see the open circuit', () => arrivedAt, 10_000);
    console.log(`circuit change A → B: ${(arrivedAt! - sentAt).toFixed(2)} ms`);
    expect(b.getCircuit('group/m1').state).toBe('open');
  });

  it('shares sticky assignments with their TTL', async () => {
    let now = 1_000_000;
    const a = await env.stores.open();
    const b = await env.stores.open({ clock: () => now });

    await a.setSticky('conversation-1', { route: 'complex', model: 'gpt' }, 30_000);

    expect(a.getSticky('conversation-1')).toEqual({ route: 'complex', model: 'gpt' });
    const seen = await waitFor('B to see the assignment', () => b.getSticky('conversation-1'));
    expect(seen).toEqual({ route: 'complex', model: 'gpt' });
    const ttl = await raw.pttl(keysOf(env.stores.prefix).sticky('conversation-1'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
    // B's copy expires with the TTL (on B's clock), as the key does in Redis.
    now += 29_000;
    expect(b.getSticky('conversation-1')).toEqual({ model: 'gpt', route: 'complex' });
    now += 1_001;
    expect(b.getSticky('conversation-1')).toBeUndefined();
  });

  it('loads the current state when an instance starts', async () => {
    const a = await env.stores.open();
    const open = await a.compareAndSetCircuit('group/m1', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      state: 'open',
      failures: 2,
      cooldownUntil: Date.now() + 60_000,
    });
    await a.addTokens('group/m1', 42);
    await a.setSticky('conversation-2', { model: 'claude' }, 60_000);

    const late = await env.stores.open();

    expect(late.getCircuit('group/m1')).toEqual(open.record);
    expect(late.getTokens('group/m1')).toBe(42);
    expect(late.getSticky('conversation-2')).toEqual({ model: 'claude' });
  });

  it('lets a circuit expire in Redis a TTL after its cooldown ends', async () => {
    const a = await env.stores.open({ ttlMs: 10_000 });

    await a.compareAndSetCircuit('group/closed', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      failures: 1,
    });
    await a.compareAndSetCircuit('group/open', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      state: 'open',
      cooldownUntil: Date.now() + 60_000,
    });

    const closedTtl = await raw.pttl(keysOf(env.stores.prefix).circuit('group/closed'));
    const openTtl = await raw.pttl(keysOf(env.stores.prefix).circuit('group/open'));
    expect(closedTtl).toBeGreaterThan(0);
    expect(closedTtl).toBeLessThanOrEqual(10_000);
    // An open circuit outlives its cooldown: it never expires while it still matters.
    expect(openTtl).toBeGreaterThan(60_000);
    expect(openTtl).toBeLessThanOrEqual(70_000);
  });

  it('keeps state under different key prefixes apart', async () => {
    const a = await env.stores.open();
    const other = await env.stores.open({ keyPrefix: `${env.stores.prefix}other:` });

    await a.compareAndSetCircuit('group/m1', CLOSED_CIRCUIT, { ...CLOSED_CIRCUIT, state: 'open' });
    await a.addTokens('group/m1', 5);
    const probe = await env.stores.open({ keyPrefix: `${env.stores.prefix}other:` });

    expect(other.getCircuit('group/m1')).toBe(CLOSED_CIRCUIT);
    expect(probe.getCircuit('group/m1')).toBe(CLOSED_CIRCUIT);
    expect(probe.getTokens('group/m1')).toBe(0);
  });

  it('rejects bad arguments with a typed error naming them', async () => {
    const a = await env.stores.open();

    await expect(a.addTokens('group/m1', Number.NaN)).rejects.toThrow(/delta must be a finite/);
    await expect(a.setSticky('c', { model: 'm' }, 0)).rejects.toThrow(/ttlMs must be a positive/);
    await expect(a.setSticky('c', { model: '' }, 10)).rejects.toThrow(/assignment\.model/);
  });
});
