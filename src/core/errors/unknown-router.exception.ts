import { RoutingException } from './exceptions.js';

/** A call named a router (or model) that the module does not have. */
export class UnknownRouterException extends RoutingException {
  constructor(
    message: string,
    /** The name that was asked for. */
    readonly requested: string,
    /** What exists, for the caller to pick from. */
    readonly known: readonly string[],
  ) {
    super(message);
  }
}
