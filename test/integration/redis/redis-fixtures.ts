import { afterAll, afterEach, beforeAll, beforeEach } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { RedisRouteStateStore } from '../../../src/redis/redis-route-state-store.js';
import type {
  RedisRouteStateStoreOptions,
  RedisStoreLogger,
} from '../../../src/redis/redis-route-state-store-options.js';
import type { RedisTopologyUnderTest } from '../../support/redis-topologies.js';
import {
  startRedisServer,
  type RedisServer,
  type RedisServerOptions,
} from '../../support/redis-server.js';

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Like `waitFor`, for a check that has to ask something (Redis) first. */
export async function waitForAsync(
  check: () => Promise<boolean>,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A logger that keeps every line, so tests can check what would have been logged. */
export class CapturingLogger implements RedisStoreLogger {
  readonly lines: string[] = [];
  warn(message: string, ...context: unknown[]): void {
    this.lines.push(['warn', message, ...context.map(String)].join(' '));
  }
  log(message: string, ...context: unknown[]): void {
    this.lines.push(['log', message, ...context.map(String)].join(' '));
  }
}

/** Stores for one test: a fresh key prefix each, closed by `closeAll()`. */
export class StoreSet {
  readonly prefix = `test-${randomUUID().slice(0, 8)}:`;
  readonly logger = new CapturingLogger();
  private readonly stores: RedisRouteStateStore[] = [];

  /** A URL (one node), or how to reach a Sentinel group or Cluster. */
  constructor(
    private readonly connection:
      string | Pick<RedisRouteStateStoreOptions, 'url' | 'sentinel' | 'cluster'>,
    private readonly defaults: Partial<RedisRouteStateStoreOptions> = {},
  ) {}

  async open(options: Partial<RedisRouteStateStoreOptions> = {}): Promise<RedisRouteStateStore> {
    const store = new RedisRouteStateStore({
      ...(typeof this.connection === 'string' ? { url: this.connection } : this.connection),
      keyPrefix: this.prefix,
      logger: this.logger,
      refreshIntervalMs: 50,
      // a loaded machine must not turn a slow reply into an outage in the sharing and atomicity
      // suites; the outage suites set their own short timeouts
      commandTimeoutMs: 5_000,
      ...this.defaults,
      ...options,
    });
    this.stores.push(store);
    await store.connect();
    return store;
  }

  /** A store the test built itself, to be closed with the others. */
  adopt<S extends RedisRouteStateStore>(store: S): S {
    this.stores.push(store);
    return store;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.stores.splice(0).map((store) => store.close()));
  }
}

export interface RedisStores {
  /** The file's redis-server: started once, and restarted after a test that stopped it. */
  readonly redis: RedisServer;
  /** The test's stores (a fresh key prefix), closed after it. */
  readonly stores: StoreSet;
}

/**
 * Registers what every Redis suite needs: one real redis-server for the file, stopped at its end,
 * and a StoreSet for each test, closed after it.
 */
export function useRedisStores(options: RedisServerOptions = {}): RedisStores {
  let redis: RedisServer | undefined;
  let startError: unknown;
  let stores: StoreSet | undefined;
  const started = () => {
    // a server that could not start: every hook and test reports why, not a follow-on error
    if (startError !== undefined) throw startError;
    if (!redis) throw new Error('redis-server starts in beforeAll: use it inside a hook or test');
    return redis;
  };

  beforeAll(async () => {
    try {
      redis = await startRedisServer(options);
    } catch (error) {
      startError = error;
      throw error;
    }
  });
  beforeEach(() => {
    stores = new StoreSet(started().url);
  });
  afterEach(async () => {
    await stores?.closeAll();
    if (redis && !redis.running) await redis.restart();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  return {
    get redis() {
      return started();
    },
    get stores() {
      if (!stores) throw new Error('the stores are made in beforeEach: use them inside a test');
      return stores;
    },
  };
}

export interface TopologyStores {
  /** The file's topology: started once, stopped at its end. */
  readonly topology: RedisTopologyUnderTest;
  /** The test's stores (a fresh key prefix), closed after it. */
  readonly stores: StoreSet;
}

/** Like `useRedisStores`, on a Sentinel group or Cluster the file starts once. */
export function useTopologyStores(start: () => Promise<RedisTopologyUnderTest>): TopologyStores {
  let topology: RedisTopologyUnderTest | undefined;
  let stores: StoreSet | undefined;
  beforeAll(async () => {
    topology = await start();
  });
  beforeEach(() => {
    // a loaded machine may take longer than the default 2 s to discover a cluster and sync
    stores = new StoreSet(topology!.connection, { connectTimeoutMs: 10_000 });
  });
  afterEach(async () => {
    await stores?.closeAll();
  });
  afterAll(async () => {
    await topology?.stop();
  });
  return {
    get topology() {
      if (!topology) throw new Error('the topology starts in beforeAll');
      return topology;
    },
    get stores() {
      if (!stores) throw new Error('the stores are made in beforeEach: use them inside a test');
      return stores;
    },
  };
}
