import type { Redis, RedisOptions } from 'ioredis';
import type { RedisClient } from './redis-route-state-store-options.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import type { ResolvedRedisStoreOptions } from './redis-route-state-store-options.js';

export interface RedisConnections {
  /** Commands: scripts, counters, scans. */
  readonly command: Redis;
  /** Pub/sub only (a subscribed connection cannot run ordinary commands). */
  readonly subscriber: Redis;
}

/**
 * Two connections tuned so that a request never waits on Redis: no offline queue (a command
 * while disconnected fails at once), a short command timeout, no replay of unanswered commands
 * after a reconnect (the store decides what to resend), and a capped reconnect backoff.
 */
export async function openRedisConnections(
  options: ResolvedRedisStoreOptions,
): Promise<RedisConnections> {
  const failFast = (name: string): RedisOptions => ({
    lazyConnect: true,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    autoResubscribe: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: options.connectTimeoutMs,
    // How long a closing socket may linger; ioredis keeps the process alive for it, even for a
    // socket that is already gone.
    disconnectTimeout: options.commandTimeoutMs,
    retryStrategy: (times: number) =>
      Math.min(50 * 2 ** Math.min(times - 1, 16), options.maxReconnectDelayMs),
    // Keys are prefixed by the store itself: the client's own prefix would not apply to SCAN
    // patterns or channels.
    keyPrefix: '',
    connectionName: name,
  });
  if (options.url !== undefined) {
    const Client = await loadIoredis();
    return {
      command: new Client(options.url.url, failFast('model-router-state')),
      subscriber: new Client(options.url.url, failFast('model-router-state-events')),
    };
  }
  // an ioredis Redis, checked when the options were resolved
  const template = options.client as unknown as Redis;
  return {
    command: template.duplicate(failFast('model-router-state')),
    subscriber: template.duplicate(failFast('model-router-state-events')),
  };
}

/** Host, port and database of a client, for `describe()` — never its password. */
export function describeClientTarget(client: RedisClient): string {
  const { host, port, db, tls, username, password } = client.options as RedisOptions & {
    tls?: unknown;
  };
  const scheme = tls ? 'rediss' : 'redis';
  const auth = password ? `${username ?? ''}:***@` : username ? `${username}@` : '';
  return `${scheme}://${auth}${host ?? 'localhost'}:${port ?? 6379}/${db ?? 0}`;
}

/**
 * ioredis is an optional peer dependency: loaded only when a Redis store connects, so that apps
 * without Redis can import the library without installing it.
 */
async function loadIoredis(): Promise<typeof Redis> {
  try {
    const module = await import('ioredis');
    return module.Redis;
  } catch {
    throw new InvalidConfigurationException(
      'the Redis route state store needs the ioredis package (an optional peer dependency); ' +
        'install it with `npm install ioredis@^6`',
    );
  }
}

/** The client's password, to redact from messages. */
export function clientSecrets(client: RedisClient | undefined): string[] {
  const password = (client?.options as { password?: unknown } | undefined)?.password;
  return typeof password === 'string' && password !== '' ? [password] : [];
}

/** QUIT when connected (lets pending replies arrive), then make sure the socket is gone. */
export async function closeConnection(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit();
    } catch {
      // already going away
    }
  }
  if (client.status === 'end') return;
  // Between attempts there is no socket: disconnecting only cancels the next attempt.
  const hasSocket = ['connecting', 'connect', 'ready'].includes(client.status);
  const ended = hasSocket
    ? new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1_000);
        timer.unref();
        client.once('end', () => {
          clearTimeout(timer);
          resolve();
        });
      })
    : Promise.resolve();
  client.disconnect();
  await ended;
}
