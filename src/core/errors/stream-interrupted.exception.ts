import { ModelRouterException } from './exceptions.js';
import { summarizeError } from './error-summary.js';

/**
 * A stream failed after part of the answer had reached the caller and could not be completed.
 * `cause` is the original failure (never a failed continuation attempt); the caller holds
 * `partialLength` characters of an unfinished answer and must not treat it as complete.
 */
export class StreamInterruptedException extends ModelRouterException {
  /** The model whose stream failed first. */
  readonly model: string;
  /** Characters of text the caller received before the stream ended. */
  readonly partialLength: number;
  /** Every failure of the call in order: the original first, then failed continuations. */
  readonly errors: unknown[];

  constructor(details: {
    model: string;
    cause: unknown;
    partialLength: number;
    reason: string;
    errors?: unknown[];
  }) {
    const original = summarizeError(details.cause);
    super(
      `The stream of model '${details.model}' failed after ${details.partialLength} characters ` +
        `of output (${original.name}: ${original.message}) and was not completed: ${details.reason}.`,
      { cause: details.cause },
    );
    this.model = details.model;
    this.partialLength = details.partialLength;
    this.errors = details.errors ?? [details.cause];
  }
}
