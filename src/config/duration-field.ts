import { z } from 'zod';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/;
/** The longest delay a Node timer holds. */
const MAX_MS = 2 ** 31 - 1;
const WORDING = "must be a duration such as '250ms', '20s' or '5m', or a number of milliseconds";

/** `'250ms'`, `'20s'`, `'5m'`, `'1h'` or a number of ms (a bare numeric string is ms) → ms. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = DURATION.exec(value);
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 'ms']!);
}

/** A duration field: above 0 and at most what a timer holds; the output is ms. */
export function duration() {
  return z.unknown().transform((value, context) => {
    const ms = parseDuration(value);
    if (ms === undefined || ms <= 0 || ms > MAX_MS) {
      context.addIssue({ code: 'custom', message: WORDING });
      return z.NEVER;
    }
    return ms;
  });
}

/** `adaptive`, or a duration (a fixed value). */
export function adaptiveOrDuration() {
  return z.unknown().transform((value, context): 'adaptive' | number => {
    if (value === 'adaptive') return 'adaptive';
    const ms = parseDuration(value);
    if (ms === undefined || ms <= 0 || ms > MAX_MS) {
      context.addIssue({
        code: 'custom',
        message: `must be 'adaptive' or ${WORDING.slice('must be '.length)}`,
      });
      return z.NEVER;
    }
    return ms;
  });
}
