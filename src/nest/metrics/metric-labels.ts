import {
  classifyError,
  DEFAULT_DISPOSITIONS,
  type ErrorKind,
} from '../../core/resilience/error-classification.js';
import { scrubCredentials } from '../../core/observability/scrub-credentials.js';

export type CallOutcome = 'ok' | 'error' | 'cancelled';

const MAX_LABEL_LENGTH = 120;

/**
 * A label value: a router, route or model name, `''` when unknown. Names come from the
 * configuration, but a model name may come from a provider's answer (`modelName`), so it is
 * scrubbed and capped like anything else that leaves the process.
 */
export function nameLabel(name: string | undefined): string {
  if (typeof name !== 'string' || name === '') return '';
  const scrubbed = scrubCredentials(name);
  return scrubbed.length > MAX_LABEL_LENGTH ? scrubbed.slice(0, MAX_LABEL_LENGTH) : scrubbed;
}

/** Only the known kinds: a custom classifier's stray value must not mint new series. */
export function kindLabel(kind: unknown): ErrorKind {
  return typeof kind === 'string' && Object.hasOwn(DEFAULT_DISPOSITIONS, kind)
    ? (kind as ErrorKind)
    : 'unknown';
}

/** An error that comes from the caller's abort is a cancellation, not a failure. */
export function outcomeOfError(error: unknown, signal: AbortSignal): CallOutcome {
  return classifyError(error, signal) === 'aborted' ? 'cancelled' : 'error';
}
