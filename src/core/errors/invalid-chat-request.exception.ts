import type { ClassifiedError } from './error-kind.js';
import { RoutingException } from './exceptions.js';

/**
 * A chat request no model can take (no messages array, a malformed message): the caller's own
 * error, so it is never retried, never failed over and never counts against a model. A
 * RoutingException, as the request checks of RoutingChatModel always were; over HTTP a 400.
 */
export class InvalidChatRequestException extends RoutingException implements ClassifiedError {
  readonly kind = 'invalid-request' as const;
}
