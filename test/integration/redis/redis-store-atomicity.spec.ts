import { describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import {
  CLOSED_CIRCUIT,
  type CircuitRecord,
  type RouteStateStore,
} from '../../../src/core/state/route-state-store.js';
import { useRedisStores, waitFor } from './redis-fixtures.js';
import { RedisKeySpace } from '../../../src/redis/redis-key-space.js';

const keysOf = (prefix: string) => new RedisKeySpace(prefix);

const env = useRedisStores();

/** Read-modify-compare-and-set until it lands: what a breaker does on every change. */
async function incrementFailures(
  store: RouteStateStore,
  key: string,
): Promise<{ successes: number; conflicts: number }> {
  let current = store.getCircuit(key);
  for (let conflicts = 0; conflicts < 10_000; conflicts++) {
    const result = await store.compareAndSetCircuit(key, current, {
      ...current,
      failures: current.failures + 1,
    });
    if (result.ok) return { successes: 1, conflicts };
    current = result.record;
  }
  throw new Error('compare-and-set never landed');
}

/** Claims a half-open probe slot unless `limit` are taken: the breaker's exactly-N rule. */
async function claimProbe(store: RouteStateStore, key: string, limit: number): Promise<boolean> {
  let current = store.getCircuit(key);
  for (;;) {
    if (current.state !== 'half-open' || current.probes >= limit) return false;
    const result = await store.compareAndSetCircuit(key, current, {
      ...current,
      probes: current.probes + 1,
    });
    if (result.ok) return true;
    current = result.record;
  }
}

describe('RedisRouteStateStore compare-and-set across two instances', () => {
  it('lands 200 concurrent read-modify-write updates exactly once each', async () => {
    const a = await env.stores.open();
    const b = await env.stores.open();

    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => incrementFailures(i % 2 === 0 ? a : b, 'group/m1')),
    );

    const successes = results.reduce((sum, r) => sum + r.successes, 0);
    const conflicts = results.reduce((sum, r) => sum + r.conflicts, 0);
    expect(successes).toBe(200);
    // The two instances really raced (otherwise the test would prove nothing).
    expect(conflicts).toBeGreaterThan(0);
    // One version per committed change: nothing was applied twice or lost.
    for (const store of [a, b]) {
      const record = await waitFor('both mirrors to show the last change', () => {
        const r = store.getCircuit('group/m1');
        return r.failures === 200 ? r : undefined;
      });
      expect(record.version).toBe(200);
    }
  });

  it('lets exactly one of 200 writers win the same expected version', async () => {
    const a = await env.stores.open();
    const b = await env.stores.open();

    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 === 0 ? a : b).compareAndSetCircuit('group/m1', CLOSED_CIRCUIT, {
          ...CLOSED_CIRCUIT,
          state: 'open',
          failures: i + 1,
        }),
      ),
    );

    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.record;
    // Every loser is told what won, so it can decide again on it.
    for (const loser of results.filter((r) => !r.ok)) {
      expect(loser.record).toEqual(winner);
    }
    expect(a.getCircuit('group/m1')).toEqual(winner);
    expect(b.getCircuit('group/m1')).toEqual(winner);
  });

  it.each([1, 3])('grants exactly %i half-open probe slot(s) across both instances', async (n) => {
    const a = await env.stores.open();
    const b = await env.stores.open();
    const opened = await a.compareAndSetCircuit('group/m1', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      state: 'half-open',
      failures: 3,
    });
    expect(opened.ok).toBe(true);
    await waitFor('B to see the half-open circuit', () => b.getCircuit('group/m1').version > 0);

    const claims = await Promise.all(
      Array.from({ length: 100 }, (_, i) => claimProbe(i % 2 === 0 ? a : b, 'group/m1', n)),
    );

    expect(claims.filter(Boolean)).toHaveLength(n);
    const record = await waitFor('B to see every claim', () => {
      const r = b.getCircuit('group/m1');
      return r.probes === n ? r : undefined;
    });
    expect(a.getCircuit('group/m1')).toEqual(record);
  });

  it('answers a compare-and-set made on a stale mirror with the record in Redis', async () => {
    const a = await env.stores.open();
    const first = await a.compareAndSetCircuit('group/m1', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      failures: 1,
    });
    expect(first.ok).toBe(true);

    // Another writer changes the record without a message (as if the message were lost).
    const raw = new Redis(env.redis.url);
    try {
      const version = await raw.incr(keysOf(env.stores.prefix).seq);
      await raw.hset(keysOf(env.stores.prefix).circuit('group/m1'), {
        v: version,
        r: JSON.stringify({ ...CLOSED_CIRCUIT, version: undefined, state: 'open', failures: 7 }),
      });
    } finally {
      raw.disconnect();
    }
    const stale = a.getCircuit('group/m1');
    expect(stale.failures).toBe(1);

    const result = await a.compareAndSetCircuit('group/m1', stale, { ...stale, failures: 2 });

    expect(result.ok).toBe(false);
    expect(result.record).toMatchObject({ state: 'open', failures: 7, version: 2 });
    expect(a.getCircuit('group/m1')).toEqual(result.record);
  });

  it('tells circuit listeners of local and remote changes', async () => {
    const a = await env.stores.open();
    const b = await env.stores.open();
    const seenByA: [string, CircuitRecord][] = [];
    const seenByB: [string, CircuitRecord][] = [];
    a.onCircuitChange((key, record) => seenByA.push([key, record]));
    b.onCircuitChange((key, record) => seenByB.push([key, record]));

    const result = await a.compareAndSetCircuit('group/m2', CLOSED_CIRCUIT, {
      ...CLOSED_CIRCUIT,
      state: 'open',
      failures: 1,
      cooldownUntil: 1_000,
      lastError: { name: 'ProviderException', message: '503 upstream', at: 500 },
    });

    expect(seenByA).toEqual([['group/m2', result.record]]);
    await waitFor('B to hear the change', () => seenByB.length > 0);
    expect(seenByB).toEqual([['group/m2', result.record]]);
  });

  it('lists circuits by key prefix from the mirror', async () => {
    const a = await env.stores.open();
    const b = await env.stores.open();
    await a.compareAndSetCircuit('r1/m1', CLOSED_CIRCUIT, { ...CLOSED_CIRCUIT, failures: 1 });
    await a.compareAndSetCircuit('r2/m1', CLOSED_CIRCUIT, { ...CLOSED_CIRCUIT, failures: 2 });

    await waitFor('B to see both circuits', () => b.listCircuits().size === 2);
    expect([...b.listCircuits('r1/').keys()]).toEqual(['r1/m1']);
  });
});
