// What the Redis store reports of itself: sharing or not, and why. Never a password.

/** `shared`: state goes through Redis; `local-only`: Redis is away, this replica decides alone. */
export type RouteStateSharing = 'shared' | 'local-only';

export interface RouteStateStatusEvent {
  status: RouteStateSharing;
  /** Why the store stopped sharing (password redacted). */
  reason?: string;
  /** Epoch ms. */
  at: number;
}

/** What health checks show of the store: no password, ever. */
export interface RedisRouteStateStoreDescription {
  type: 'redis';
  /** The Redis URL with its password replaced by `***`. */
  url: string;
  keyPrefix: string;
  status: RouteStateSharing;
  /** The last Redis problem seen (password redacted), if any. */
  lastError?: string;
}

export type StatusListener = (event: RouteStateStatusEvent) => void;
