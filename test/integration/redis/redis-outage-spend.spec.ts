import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { userMessage } from '../../../src/core/chat/messages.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { BudgetLedger } from '../../../src/core/budget/budget-ledger.js';
import { costOf } from '../../../src/core/cost/cost.js';
import { MODEL_PROFILE, type ModelProfile } from '../../../src/core/cost/model-profile.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { windowStart } from '../../../src/core/state/counter-store.js';
import type { RouteStateStore } from '../../../src/core/state/route-state-store.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { useRedisStores, waitFor, waitForAsync } from './redis-fixtures.js';
import { TcpProxy } from './tcp-proxy.js';
import { RedisKeySpace } from '../../../src/redis/redis-key-space.js';

const keysOf = (prefix: string) => new RedisKeySpace(prefix);

/** Issue 24, point 4: no spend is lost to a Redis outage. */
const env = useRedisStores();

const HOUR = 3_600_000;
const MINUTE = 60_000;
// the middle of a minute and of an hour: no call straddles two windows
const NOW = HOUR * 500_000 + 30 * MINUTE + 30_000;
const clock = () => NOW;
/** Fast reconnects, so a restart is noticed quickly; the defaults are for production. */
const FAST = { clock, maxReconnectDelayMs: 50, commandTimeoutMs: 300, connectTimeoutMs: 500 };

const PROFILE: ModelProfile = {
  pricing: { input: 3, output: 7 },
  maxOutputTokens: 500,
  // limits far away: the windows count every call, and refuse none
  limits: { rpm: 1_000_000, tpm: 1_000_000_000 },
};
/** Usage of the i-th answer: varied, so a lost or doubled call shows in the sum. */
const usageOf = (i: number) => ({
  inputTokens: 11 + (i % 7),
  outputTokens: 100 + ((i * 37) % 300),
  totalTokens: 111 + (i % 7) + ((i * 37) % 300),
});

/** One replica: a group over a priced, limited model, a budget, its own store. */
function replica(store: RouteStateStore) {
  const ledger = new BudgetLedger([{ name: 'team', limitUsd: 1_000, period: '1h' }], {
    store,
    clock,
  });
  const charged = { usd: 0, calls: 0, tokens: 0 };
  let next = 0;
  const model = {
    chat: async (): Promise<ChatResponse> => {
      const usage = usageOf(next++);
      await new Promise((resolve) => setImmediate(resolve));
      charged.usd += costOf(usage, PROFILE.pricing)!;
      charged.calls += 1;
      charged.tokens += usage.totalTokens;
      return { aiMessage: { role: 'assistant', text: 'priced answer' }, tokenUsage: usage };
    },
  };
  const router = new ModelRouter({
    routes: [{ name: 'priced', model, metadata: [[MODEL_PROFILE, PROFILE]] }] as never,
    routingStrategy: new FailoverStrategy({ clock }),
    budgets: ledger,
  });
  router.bindRouteState({ store, scope: 'group', clock });
  return { router, ledger, charged };
}

type Replica = ReturnType<typeof replica>;

/** `count` calls, ten at a time, alternating between the replicas; every one must answer. */
async function calls(replicas: Replica[], count: number): Promise<void> {
  for (let sent = 0; sent < count; sent += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - sent) }, (_, i) =>
        replicas[(sent + i) % replicas.length]!.router.chat({
          messages: [userMessage(`question ${sent + i}`)],
        }),
      ),
    );
  }
}

/** What Redis itself holds for a window (the store's key layout: see RedisCounters). */
async function inRedis(key: string, windowMs: number): Promise<number> {
  const raw = new Redis(env.redis.url);
  try {
    const start = windowStart({ windowMs, now: NOW });
    return Number((await raw.get(keysOf(env.stores.prefix).window(key, start)[0])) ?? 0);
  } finally {
    raw.disconnect();
  }
}

const spentInRedis = async () => (await inRedis('budget:team:spent', HOUR)) / 1e9;
const total = (replicas: Replica[], what: 'usd' | 'calls' | 'tokens') =>
  replicas.reduce((sum, r) => sum + r.charged[what], 0);

/** Waits until Redis holds `expected` spend (within 1 %) and every replica reads it. */
async function agreed(replicas: Replica[], expected: number): Promise<void> {
  const close = (value: number) => Math.abs(value - expected) <= expected * 0.01;
  await waitForAsync(async () => close(await spentInRedis()), 10_000);
  await waitFor('every replica to read the spend', () =>
    replicas.every((r) => close(r.ledger.spentUsd('team'))),
  );
}

describe('spend counted while Redis was away', () => {
  it('is written back after a SIGKILL and an empty restart, once, on two replicas', async () => {
    const stores = [await env.stores.open(FAST), await env.stores.open(FAST)];
    const replicas = stores.map(replica);

    await calls(replicas, 100);
    await env.redis.kill();
    await waitFor('both replicas to count alone', () => stores.every((s) => !s.isShared()));
    await calls(replicas, 100);
    await env.redis.restart(); // empty: no persistence
    // calls go on while the replicas reconnect and resync
    await calls(replicas, 100);
    await waitFor('both to share again', () => stores.every((s) => s.isShared()), 10_000);

    const trueSpend = total(replicas, 'usd');
    expect(total(replicas, 'calls')).toBe(300);
    await agreed(replicas, trueSpend);
    expect(await spentInRedis()).toBeCloseTo(trueSpend, 9);
    // every call's reservation was settled: what is committed is what was spent
    expect((await inRedis('budget:team', HOUR)) / 1e9).toBeCloseTo(trueSpend, 9);
    // the rpm and tpm windows of the minute are written back as well
    expect(await inRedis('limits:priced:rpm', MINUTE)).toBe(300);
    expect(await inRedis('limits:priced:tpm', MINUTE)).toBe(total(replicas, 'tokens'));

    // Every resync writes each replica's whole contribution again: dropping both replicas'
    // connections makes them send it all a second time, and nothing is counted twice.
    const admin = new Redis(env.redis.url);
    try {
      await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
    } finally {
      admin.disconnect();
    }
    await waitFor('both to lose sharing', () => stores.every((s) => !s.isShared()));
    await waitFor('both to share again', () => stores.every((s) => s.isShared()), 10_000);
    await calls(replicas, 20);
    const after = total(replicas, 'usd');
    await agreed(replicas, after);
    expect(await spentInRedis()).toBeCloseTo(after, 9);
    expect(await inRedis('limits:priced:rpm', MINUTE)).toBe(320);
  });
});

describe('spend in a Redis flushed under connected replicas', () => {
  it('is put back from every replica, once', async () => {
    const stores = [await env.stores.open(FAST), await env.stores.open(FAST)];
    const replicas = stores.map(replica);
    await calls(replicas, 40);
    await agreed(replicas, total(replicas, 'usd'));

    const admin = new Redis(env.redis.url);
    try {
      await admin.flushall();
    } finally {
      admin.disconnect();
    }
    // the refresh notices the lost data set; each replica's resync puts its contribution back
    await agreed(replicas, total(replicas, 'usd'));
    await calls(replicas, 10);
    await agreed(replicas, total(replicas, 'usd'));
    expect(await spentInRedis()).toBeCloseTo(total(replicas, 'usd'), 9);
    expect(await inRedis('limits:priced:rpm', MINUTE)).toBe(50);
  });
});

describe('an add whose reply was lost although Redis applied it', () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await TcpProxy.start(env.redis.port);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('counts once after the resync: spend, windows and token totals', async () => {
    const cut = await env.stores.open({ ...FAST, url: `redis://127.0.0.1:${proxy.port}` });
    const other = await env.stores.open(FAST);
    const replicas = [replica(cut), replica(other)];
    await calls(replicas, 20);
    await other.addTokens('usage/x', 10);
    await agreed(replicas, total(replicas, 'usd'));
    await waitFor('the tokens to reach the other replica', () => cut.getTokens('usage/x') === 10);

    // Redis seems to hang for this replica: its adds time out, it counts them alone; the
    // commands still reach Redis when the connection resumes, and are applied there.
    proxy.stall();
    const tokens = cut.addTokens('usage/x', 7);
    await calls([replicas[0]!], 5);
    expect(await tokens).toBe(17);
    expect(cut.isShared()).toBe(false);
    proxy.heal();
    await waitFor('the stalled replica to share again', () => cut.isShared(), 10_000);

    await agreed(replicas, total(replicas, 'usd'));
    expect(await spentInRedis()).toBeCloseTo(total(replicas, 'usd'), 9);
    expect(await inRedis('limits:priced:rpm', MINUTE)).toBe(25);
    await waitFor('both to count 17 tokens', () =>
      [cut, other].every((s) => s.getTokens('usage/x') === 17),
    );
    const raw = new Redis(env.redis.url);
    try {
      expect(Number(await raw.hget(keysOf(env.stores.prefix).tokens, 'usage/x'))).toBe(17);
    } finally {
      raw.disconnect();
    }
  });
});
