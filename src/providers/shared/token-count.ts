/**
 * A token count as a provider reported it, when it is one: a whole number, zero or more. A
 * negative, fractional or non-numeric count is a broken server's, and taken on it would credit a
 * budget or skew a cost; it is dropped, as a count the provider did not give.
 */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
