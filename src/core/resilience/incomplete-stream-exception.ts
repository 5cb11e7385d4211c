import { ModelRouterException } from '../errors/exceptions.js';
import type { ClassifiedError } from './error-classification.js';

/**
 * A model's stream ended without its `complete` event: the answer may be cut off, so it is never
 * passed on as a success. Transient: before anything reached the caller it is retried like a
 * dropped connection; after that the group layer decides (continuation or error).
 */
export class IncompleteStreamException extends ModelRouterException implements ClassifiedError {
  readonly kind = 'transient' as const;

  constructor(readonly model: string) {
    super(
      `Model '${model}' ended its stream without a complete event; the answer may be truncated`,
    );
  }
}
