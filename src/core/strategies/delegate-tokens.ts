import type { InspectableRouting } from '../inspection/inspection.js';

/** The token totals a delegate strategy reports per model, for health; none if it reports none. */
export function delegateTokens(delegate: unknown): Map<string, number> {
  const inspect = (delegate as Partial<InspectableRouting> | undefined)?.inspectModels;
  const tokens = new Map<string, number>();
  if (typeof inspect !== 'function') return tokens;
  try {
    for (const status of inspect.call(delegate)) {
      if (status.tokens !== undefined) tokens.set(status.model, status.tokens);
    }
  } catch {
    // the delegate's report is extra detail; the circuits are still worth showing
  }
  return tokens;
}
