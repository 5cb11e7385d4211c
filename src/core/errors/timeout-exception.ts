import type { ClassifiedError } from './error-kind.js';
import { ModelRouterException } from './exceptions.js';

export type TimeoutPhase = 'attempt' | 'first-token' | 'idle' | 'deadline';

/** A model did not answer (or stopped answering) within its bound. */
export class ModelTimeoutException extends ModelRouterException implements ClassifiedError {
  readonly kind = 'timeout' as const;

  constructor(
    readonly phase: TimeoutPhase,
    readonly timeoutMs: number,
    model?: string,
  ) {
    super(
      `${model ? `Model '${model}'` : 'The model'} exceeded its ${phase} timeout of ${timeoutMs} ms`,
    );
  }
}
