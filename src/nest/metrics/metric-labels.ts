import {
  classifyError,
  DEFAULT_DISPOSITIONS,
  type ErrorKind,
} from '../../core/resilience/error-classification.js';
import { scrubCredentials } from '../../core/observability/scrub-credentials.js';

export type CallOutcome = 'ok' | 'error' | 'cancelled';

const MAX_LABEL_LENGTH = 120;
/** Distinct names remembered; a label set this large is a cardinality problem of its own. */
const MAX_CACHED_LABELS = 1_000;
const labels = new Map<string, string>();

/**
 * A label value: a router, route or model name, `''` when unknown. Names come from the
 * configuration, but a model name may come from a provider's answer (`modelName`), so it is
 * scrubbed and capped like anything else that leaves the process. The same few names come back
 * on every call, so each is scrubbed once (four regular expressions) and then looked up.
 */
export function nameLabel(name: string | undefined): string {
  if (typeof name !== 'string' || name === '') return '';
  let label = labels.get(name);
  if (label === undefined) {
    const scrubbed = scrubCredentials(name);
    label = scrubbed.length > MAX_LABEL_LENGTH ? scrubbed.slice(0, MAX_LABEL_LENGTH) : scrubbed;
    // full: start over rather than track recency; the configured names come right back
    if (labels.size >= MAX_CACHED_LABELS) labels.clear();
    labels.set(name, label);
  }
  return label;
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
