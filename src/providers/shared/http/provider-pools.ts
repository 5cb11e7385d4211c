import { Pool, type Dispatcher } from 'undici';

/** How a provider model reaches its server; every field is optional. */
export interface ProviderHttpOptions {
  /** Connections per origin, at most; further calls queue for a free one. Default 128. */
  connections?: number;
  /**
   * Ms an idle connection waits for the next call; default 4 000. A shorter `Keep-Alive: timeout`
   * from the server wins.
   */
  keepAliveTimeoutMs?: number;
  /** An undici dispatcher of your own (a `ProxyAgent`, a `MockAgent`) instead of the shared pool. */
  dispatcher?: Dispatcher;
}

export const DEFAULT_CONNECTIONS = 128;
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 4_000;

/**
 * One pool per origin and connection settings, shared by every model of the process: the
 * gateway builds a model per `provider/model-id`, and all of them reuse the provider's warm
 * connections. The keys come from configuration (base URLs), so the map stays small.
 */
const pools = new Map<string, Pool>();

export function providerDispatcher(origin: string, options: ProviderHttpOptions = {}): Dispatcher {
  if (options.dispatcher) return options.dispatcher;
  const connections = options.connections ?? DEFAULT_CONNECTIONS;
  const keepAliveTimeout = options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS;
  const key = `${origin} ${connections} ${keepAliveTimeout}`;
  let pool = pools.get(key);
  if (!pool || pool.closed || pool.destroyed) {
    pool = new Pool(origin, { connections, keepAliveTimeout, pipelining: 1 });
    pools.set(key, pool);
  }
  return pool;
}

/**
 * Closes the shared provider pools (their idle connections; calls in flight finish first). Idle
 * connections never keep a process alive, so this is for a clean shutdown, not a required one.
 */
export async function closeProviderPools(): Promise<void> {
  const open = [...pools.values()];
  pools.clear();
  await Promise.all(open.map((pool) => pool.close()));
}
