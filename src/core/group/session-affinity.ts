import { InvalidConfigurationException } from '../errors/exceptions.js';
import type { RouteStateBinding } from '../inspection/inspection.js';
import { InMemoryRouteStateStore } from '../state/in-memory-route-state-store.js';
import { isPromiseLike } from '../state/maybe-async.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import { uniqueScope } from '../state/unique-scope.js';
import { sessionAttribute } from '../chat/call-attributes.js';

export const DEFAULT_SESSION_TTL_MS = 30 * 60_000;

export interface SessionAffinityOptions {
  /** How long a session stays on its model after its last answer; default 30 minutes. */
  ttlMs?: number;
  /** Where pins live; default: a new in-memory store. The Nest module may bind a shared one. */
  store?: RouteStateStore;
  /** Key prefix of this group's pins; default: unique per instance. */
  scope?: string;
}

/**
 * The store key of a session's pin. The route is part of it, so one session can be served by
 * different models on different routes; the session key comes last, so no route name and
 * session key can produce the key of another pair.
 */
export function sessionStateKey(scope: string, session: string, route?: string): string {
  return `${scope}:session:${encodeURIComponent(route ?? '')}:${session}`;
}

/** The session of a call: a non-blank string attribute; anything else means no session. */
export function sessionOf(
  attributes: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const session = sessionAttribute.of(attributes);
  return session !== undefined && session.trim() !== '' ? session : undefined;
}

/**
 * Session affinity of one model group: which model a session was last answered by, read from
 * and written to the route state store's sticky assignments. It is a preference, never a
 * requirement: the strategy still decides whether the pinned model may serve now, and a store
 * that fails only costs the preference, never the call.
 */
export class SessionAffinity {
  readonly ttlMs: number;
  /** Created on the first pin when none was given or bound: most groups never see a session. */
  protected store: RouteStateStore | undefined;
  protected scope: string;
  private readonly explicit: { store: boolean; scope: boolean };

  constructor(options: SessionAffinityOptions = {}) {
    const { ttlMs = DEFAULT_SESSION_TTL_MS, store, scope } = options;
    if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw new InvalidConfigurationException(
        `sessionTtlMs must be a positive number of milliseconds (default ${DEFAULT_SESSION_TTL_MS}); got ${String(ttlMs)}.`,
      );
    }
    if (store !== undefined && !isStore(store)) {
      throw new InvalidConfigurationException(
        'sessionStore must be a RouteStateStore (with getSticky and setSticky).',
      );
    }
    if (scope !== undefined && (typeof scope !== 'string' || scope.trim() === '')) {
      throw new InvalidConfigurationException('sessionScope must be a non-blank string.');
    }
    this.ttlMs = ttlMs;
    this.store = store;
    this.scope = scope ?? uniqueScope('sessions');
    this.explicit = { store: store !== undefined, scope: scope !== undefined };
  }

  /** Takes the Nest module's shared store and scope, unless built with explicit ones. */
  bind(binding: RouteStateBinding): void {
    if (!this.explicit.store) this.store = binding.store;
    if (!this.explicit.scope) this.scope = binding.scope;
  }

  /**
   * The model among `models` that the session is pinned to on this route, if any. Synchronous
   * (the store reads a local view); a store error means no pin.
   */
  pinned(
    session: string,
    route: string | undefined,
    models: readonly ChatModelWrapper[],
  ): ChatModelWrapper | undefined {
    if (!this.store) return undefined;
    try {
      const assignment = this.store.getSticky(sessionStateKey(this.scope, session, route));
      if (!assignment || typeof assignment.model !== 'string') return undefined;
      if (assignment.route !== undefined && assignment.route !== route) return undefined;
      return models.find((model) => model.name === assignment.model);
    } catch {
      return undefined;
    }
  }

  /**
   * Pins the session to the model that just answered, for another `ttlMs`. Not awaited: a
   * shared store writes in the background (its local view has the pin at once), and a failed
   * write only loses the preference.
   */
  pin(session: string, route: string | undefined, model: string): void {
    try {
      this.store ??= new InMemoryRouteStateStore();
      const written = this.store.setSticky(
        sessionStateKey(this.scope, session, route),
        route === undefined ? { model } : { route, model },
        this.ttlMs,
      );
      if (isPromiseLike(written)) written.then(undefined, () => undefined);
    } catch {
      // deliberately ignored: affinity is an optimisation
    }
  }
}

function isStore(value: unknown): value is RouteStateStore {
  const store = value as Partial<RouteStateStore> | null;
  return (
    typeof store === 'object' &&
    store !== null &&
    typeof store.getSticky === 'function' &&
    typeof store.setSticky === 'function'
  );
}
