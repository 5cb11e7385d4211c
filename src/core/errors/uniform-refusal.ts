import type { NoMatchingModelFoundException } from './exceptions.js';
import { ProviderException } from './provider-exception.js';

/** Provider verdicts on the request itself: another model cannot change them, a retry neither. */
const REFUSALS = new Set<ProviderException['kind']>([
  'context-length',
  'content-policy',
  'invalid-request',
]);

/**
 * The last error when every model of a group refused the request for the same reason (a prompt
 * too long for every window, content refused by every provider): that is the caller's problem,
 * to be answered as the refusal itself, not as an outage that clients would retry.
 */
export function uniformRefusal(
  exhausted: NoMatchingModelFoundException,
): ProviderException | undefined {
  const { errors } = exhausted;
  const last = errors[errors.length - 1];
  if (!(last instanceof ProviderException) || !REFUSALS.has(last.kind)) return undefined;
  const same = errors.every((e) => e instanceof ProviderException && e.kind === last.kind);
  return same ? last : undefined;
}
