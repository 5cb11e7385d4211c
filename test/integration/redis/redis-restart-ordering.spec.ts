import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CLOSED_CIRCUIT, type CircuitRecord } from '../../../src/core/state/route-state-store.js';
import type { RedisRouteStateStore } from '../../../src/redis/redis-route-state-store.js';
import { useRedisStores, waitFor } from './redis-fixtures.js';
import { TcpProxy } from './tcp-proxy.js';

const env = useRedisStores();

const FAST = { maxReconnectDelayMs: 50, commandTimeoutMs: 300, connectTimeoutMs: 500 };
const KEY = 'auto/simple:primary';
const NOW = Date.now();

/** CAS on the store's current record, which must succeed. */
async function change(
  store: RedisRouteStateStore,
  next: (current: CircuitRecord) => Omit<CircuitRecord, 'version'>,
): Promise<CircuitRecord> {
  const current = store.getCircuit(KEY);
  const result = await store.compareAndSetCircuit(KEY, current, next(current));
  expect(result.ok).toBe(true);
  return result.record;
}

/** A half-open probe claimed on `current`. */
const probe = (current: CircuitRecord) => ({
  ...current,
  state: 'half-open' as const,
  probes: 1,
  probeStartedAt: NOW,
});

/**
 * Issue 12, point 4: a model opened (shared); Redis dies; the cooldown ends and both replicas
 * admit a half-open probe; A's probe fails (escalated cooldown, 2 failures) while B's is still
 * out; Redis comes back empty. The README promises the newest circuit wins: A's, whichever
 * replica reconnects first. B used to win when it reconnected first, and probed early.
 */
describe('a circuit changed on two replicas while Redis was away, Redis back empty', () => {
  let proxyA: TcpProxy;
  let proxyB: TcpProxy;

  beforeEach(async () => {
    if (!env.redis.running) await env.redis.restart();
    proxyA = await TcpProxy.start(env.redis.port);
    proxyB = await TcpProxy.start(env.redis.port);
  });

  afterEach(async () => {
    await proxyA?.close();
    await proxyB?.close();
  });

  it.each([
    ['B reconnects first', 'B'],
    ['A reconnects first', 'A'],
  ])('keeps A’s failed probe (escalated cooldown) when %s', async (_name, first) => {
    const a = await env.stores.open({ ...FAST, url: `redis://127.0.0.1:${proxyA.port}` });
    const b = await env.stores.open({ ...FAST, url: `redis://127.0.0.1:${proxyB.port}` });
    const opened = await change(a, () => ({
      ...CLOSED_CIRCUIT,
      state: 'open',
      failures: 1,
      consecutiveFailures: 1,
      openedAt: NOW - 30_000,
      cooldownUntil: NOW - 1,
    }));
    await waitFor('B to see the open circuit', () => b.getCircuit(KEY).version === opened.version);

    await env.redis.kill();
    await waitFor('both to go local', () => !a.isShared() && !b.isShared());
    // both admit a probe; A's fails and re-opens the circuit with a doubled cooldown
    await change(a, probe);
    await change(b, probe);
    const escalated = await change(a, (current) => ({
      ...current,
      state: 'open',
      probes: 0,
      failures: 2,
      consecutiveFailures: 2,
      reopenCount: 1,
      openedAt: NOW,
      cooldownUntil: NOW + 120_000,
    }));

    const [early, late] = first === 'B' ? [b, a] : [a, b];
    const lateProxy = first === 'B' ? proxyA : proxyB;
    lateProxy.cut();
    await env.redis.restart(); // same port, empty
    await waitFor('the first replica to share again', () => early.isShared(), 10_000);
    lateProxy.heal();
    await waitFor('the second replica to share again', () => late.isShared(), 10_000);

    const expected = {
      state: 'open',
      failures: 2,
      reopenCount: 1,
      cooldownUntil: escalated.cooldownUntil,
    };
    await waitFor('both to agree', () => a.getCircuit(KEY).version === b.getCircuit(KEY).version);
    expect(a.getCircuit(KEY)).toMatchObject(expected);
    expect(b.getCircuit(KEY)).toMatchObject(expected);
    // a replica that starts now reads the same from Redis
    const fresh = await env.stores.open(FAST);
    expect(fresh.getCircuit(KEY)).toMatchObject(expected);
  });
});
