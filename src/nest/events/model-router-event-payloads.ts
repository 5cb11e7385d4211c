import type { ErrorSummary } from '../../core/observability/routing-event.js';
import type { ErrorKind } from '../../core/resilience/error-classification.js';

type Fields<T> = Omit<{ [K in keyof T]: T[K] }, 'timestamp'>;

/** What every model-router event carries. Error messages are scrubbed of credentials. */
export abstract class ModelRouterEvent {
  /** The router (as registered in the module) whose call or state produced the event. */
  readonly router!: string;
  /** ISO time the module emitted the event. */
  readonly timestamp: string = new Date().toISOString();
}

/** A router chose a route (or a tool-loop round reused its route). */
export class RouteSelectedEvent extends ModelRouterEvent {
  readonly route!: string;
  readonly isDefaultRoute!: boolean;
  /** The route came from the tool loop's sticky attribute; the router was not asked. */
  readonly sticky?: boolean;
  /** Route → probability, when the decision model reported them. */
  readonly probabilities?: Record<string, number>;

  constructor(fields: Fields<RouteSelectedEvent>) {
    super();
    Object.assign(this, fields);
  }
}

/** A model failed one attempt (also when a failover hides the failure from the caller). */
export class RouteFailedEvent extends ModelRouterEvent {
  readonly route?: string;
  readonly model!: string;
  /** 1-based attempt number within the call. */
  readonly attempt!: number;
  readonly kind!: ErrorKind;
  readonly error!: ErrorSummary;

  constructor(fields: Fields<RouteFailedEvent>) {
    super();
    Object.assign(this, fields);
  }
}

/** A group moved on from a failed model to the next one. `model` is the model now tried. */
export class FailoverEvent extends ModelRouterEvent {
  readonly route?: string;
  readonly model!: string;
  readonly from!: string;
  readonly to!: string;
  readonly attempt!: number;

  constructor(fields: Fields<FailoverEvent>) {
    super();
    Object.assign(this, fields);
  }
}

/** A model entered cooldown (its circuit opened). */
export class CooldownStartedEvent extends ModelRouterEvent {
  readonly route?: string;
  readonly model!: string;
  /** ISO time when the model may be tried again. */
  readonly cooldownUntil!: string;
  readonly failures!: number;
  readonly error?: ErrorSummary;

  constructor(fields: Fields<CooldownStartedEvent>) {
    super();
    Object.assign(this, fields);
  }
}

/** A model left cooldown, noticed by a call or by a health check. */
export class CooldownEndedEvent extends ModelRouterEvent {
  readonly route?: string;
  readonly model!: string;

  constructor(fields: Fields<CooldownEndedEvent>) {
    super();
    Object.assign(this, fields);
  }
}

/** Every model of a group failed or was cooling down: the call failed. */
export class RouterExhaustedEvent extends ModelRouterEvent {
  readonly route?: string;
  readonly attempts!: number;
  readonly errors!: ErrorSummary[];
  /** ms until the earliest model may be tried again, when all are cooling down. */
  readonly retryAfterMs?: number;

  constructor(fields: Fields<RouterExhaustedEvent>) {
    super();
    Object.assign(this, fields);
  }
}

/** The decision model failed; `fallback` says whether the default route served instead. */
export class DecisionFailedEvent extends ModelRouterEvent {
  readonly error!: ErrorSummary;
  readonly fallback!: 'default-route' | 'fail';

  constructor(fields: Fields<DecisionFailedEvent>) {
    super();
    Object.assign(this, fields);
  }
}

/** A shared state store switched between sharing and serving from local state. */
export class StateStoreStatusEvent {
  /** `shared`, or `local-only` while the store's backend is unreachable. */
  readonly status!: string;
  /** Why sharing stopped (credentials redacted). */
  readonly reason?: string;
  /** ISO time of the switch. */
  readonly at!: string;

  constructor(fields: { status: string; reason?: string; at: string }) {
    Object.assign(this, fields);
  }
}
