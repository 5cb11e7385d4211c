import type { FastifyInstance } from 'fastify';
import {
  type Clock,
  DEFAULT_SESSION_TTL_MS,
  InvalidConfigurationException,
} from 'nest-model-router/core';

/** Live sessions one key may have pinned at a time (see SessionPins). */
export const DEFAULT_MAX_SESSIONS_PER_KEY = 10_000;

export interface SessionPinsOptions {
  maxPerKey?: number;
  /** How long an unused session counts as live; the routers' session TTL (default 30 min). */
  ttlMs?: number;
  clock?: Clock;
}

/**
 * Which `x-model-router-session` ids may pin a model, per API key. A session is pinned under
 * its key's name (`<key>:<session>`), so a key can neither read nor overwrite another key's
 * pins. Each key holds at most `maxPerKey` live sessions, kept in order of last use: a session
 * unused for `ttlMs` (when its pin has expired too) leaves, least recently used first, and a
 * new session beyond the bound is served without a pin, never at another key's (or its own
 * live sessions') expense. So pins cost at most `maxPerKey` per key and route, where each new
 * session id used to pin ~380 B for 30 minutes without a cap.
 */
export class SessionPins {
  private readonly byKey = new Map<string, Map<string, number>>();
  private readonly maxPerKey: number;
  private readonly ttlMs: number;
  private readonly clock: Clock;

  constructor(options: SessionPinsOptions = {}) {
    this.maxPerKey = options.maxPerKey ?? DEFAULT_MAX_SESSIONS_PER_KEY;
    if (!Number.isSafeInteger(this.maxPerKey) || this.maxPerKey < 0) {
      throw new InvalidConfigurationException(
        `maxSessionsPerKey must be a whole number >= 0 (0: no session is pinned); got ${String(options.maxPerKey)}.`,
      );
    }
    this.ttlMs = options.ttlMs ?? DEFAULT_SESSION_TTL_MS;
    this.clock = options.clock ?? Date.now;
  }

  /** The session key to pin `session` under for `keyName` (none without auth), or undefined. */
  admit(keyName: string | undefined, session: string): string | undefined {
    const owner = keyName ?? '';
    const now = this.clock();
    let sessions = this.byKey.get(owner);
    if (!sessions) this.byKey.set(owner, (sessions = new Map()));
    const lastUse = sessions.get(session);
    const live = lastUse !== undefined && now - lastUse < this.ttlMs;
    if (lastUse !== undefined) sessions.delete(session);
    // least recently used first: drop those whose pins have expired
    for (const [stale, at] of sessions) {
      if (now - at < this.ttlMs) break;
      sessions.delete(stale);
    }
    if (!live && sessions.size >= this.maxPerKey) return undefined;
    sessions.set(session, now);
    return `${encodeURIComponent(owner)}:${session}`;
  }
}

const pinsOfServer = new WeakMap<object, SessionPins>();

/** Gives an application its bound (createGatewayApp); one with none gets the defaults. */
export function registerSessionPins(fastify: FastifyInstance, pins: SessionPins): void {
  pinsOfServer.set(fastify.server, pins);
}

/** Keyed by the HTTP server, which every encapsulated Fastify context shares. */
export function sessionPinsOf(fastify: FastifyInstance): SessionPins {
  let pins = pinsOfServer.get(fastify.server);
  if (!pins) pinsOfServer.set(fastify.server, (pins = new SessionPins()));
  return pins;
}
