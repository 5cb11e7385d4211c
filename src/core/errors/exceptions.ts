/** Base of every error this library throws on purpose. */
export class ModelRouterException extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A configuration that cannot work; thrown at construction or start-up, naming the field. */
export class InvalidConfigurationException extends ModelRouterException {}

/** A routing decision that cannot be carried out (unknown route, unknown router, bad result…). */
export class RoutingException extends ModelRouterException {}

/** A decision model answered with something that was not offered. */
export class InvalidDecisionResponseException extends ModelRouterException {}

/** Every model of a group was tried (or none could be), and none answered. */
export class NoMatchingModelFoundException extends ModelRouterException {
  /** Each attempt's error, in order. */
  readonly errors: unknown[];
  /** When every model is cooling down: ms until the earliest one may be tried again. */
  readonly retryAfterMs?: number;

  constructor(message: string, errors: unknown[] = [], options: { retryAfterMs?: number } = {}) {
    super(message, errors.length > 0 ? { cause: errors[errors.length - 1] } : undefined);
    this.errors = errors;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}
