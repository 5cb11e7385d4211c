import { z } from 'zod';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/;
/** The longest delay a Node timer holds. */
const MAX_MS = 2 ** 31 - 1;
const FORMS = "a duration such as '250ms', '20s', '5m' or '1h', or a whole number of milliseconds";
const WORDING = `must be ${FORMS}`;

/** `'250ms'`, `'20s'`, `'5m'`, `'1h'` or a whole number of ms (a bare numeric string is ms) → ms. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = DURATION.exec(value);
  // '1.5' alone is no whole number of ms, as 1.5 is not
  if (!match || (match[2] === undefined && match[1]!.includes('.'))) return undefined;
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 'ms']!);
}

export interface DurationFieldOptions {
  /** 0 is a value (a cooldown of none); by default a duration is above 0. */
  zero?: boolean;
}

/**
 * The one duration field of configuration schemas, the `…Ms` keys included: a number of ms or
 * a duration string, at most what a timer holds; the output is ms. `'30s'` in a YAML file and
 * `30000` (or `'30000'` from `${ENV}`) mean the same.
 */
export function duration(options: DurationFieldOptions = {}) {
  const least = options.zero === true ? 0 : 1;
  const wording = options.zero === true ? `${WORDING} (0 or more)` : `${WORDING} above 0`;
  return z.unknown().transform((value, context) => {
    const ms = parseDuration(value);
    if (ms === undefined || ms < least || ms > MAX_MS) {
      context.addIssue({ code: 'custom', message: wording });
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
      context.addIssue({ code: 'custom', message: `must be 'adaptive' or ${FORMS}` });
      return z.NEVER;
    }
    return ms;
  });
}

/**
 * A section another check owns (the `state:` store's): its `…Ms` settings given as duration
 * strings become ms; anything else is left for that check to word, with the field's path.
 */
export function withDurationsInMs<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, setting] of Object.entries(copy)) {
    const ms =
      key.endsWith('Ms') && typeof setting === 'string' ? parseDuration(setting) : undefined;
    if (ms !== undefined) copy[key] = ms;
  }
  return copy as T;
}
