/**
 * Response headers as the SDKs and fetch expose them: a `Headers`-like object with `get`, or a
 * plain record (Node's `IncomingHttpHeaders`, the Anthropic/OpenAI error `headers`).
 */
export type HeadersLike =
  | { get(name: string): string | null | undefined }
  | Readonly<Record<string, string | readonly string[] | number | null | undefined>>;

const DECIMAL = /^\s*\d+(\.\d+)?\s*$/;

/**
 * How long the provider asked us to wait, in ms: `retry-after-ms` (OpenAI) wins, else
 * `Retry-After` as delta-seconds or as an HTTP date (relative to `now`, never negative).
 * `undefined` when neither header is present or readable, so callers fall back to backoff.
 */
export function parseRetryAfter(
  headers: HeadersLike | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headerValue(headers, 'retry-after-ms');
  if (ms !== undefined && DECIMAL.test(ms)) return Math.ceil(Number(ms));
  const value = headerValue(headers, 'retry-after');
  if (value === undefined) return undefined;
  if (DECIMAL.test(value)) return Math.ceil(Number(value) * 1000);
  const at = parseHttpDate(value);
  return at === undefined ? undefined : Math.max(0, at - now);
}

// The three forms of RFC 9110 §5.6.7. Matched first because Date.parse alone is lenient enough
// to read "Someday 99" as a date.
const IMF_FIXDATE = /^[a-z]{3}, \d{2} [a-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/i;
const RFC_850 = /^[a-z]{6,9}, \d{2}-[a-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/i;
const ASCTIME = /^[a-z]{3} [a-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/i;

/** Epoch ms of an HTTP date, or `undefined` when `value` is not one. */
export function parseHttpDate(value: string): number | undefined {
  const text = value.trim();
  let at = Number.NaN;
  if (IMF_FIXDATE.test(text) || RFC_850.test(text)) at = Date.parse(text);
  // asctime has no zone but is GMT by definition; Date.parse would read it as local time.
  else if (ASCTIME.test(text)) at = Date.parse(`${text} GMT`);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * The wait an error asks for: its own `retryAfterMs` (ProviderException), else the
 * `Retry-After` headers of a raw SDK error. `undefined` when the error says nothing.
 */
export function retryAfterOf(error: unknown, now: number = Date.now()): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { retryAfterMs, headers } = error as { retryAfterMs?: unknown; headers?: unknown };
  if (typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return retryAfterMs;
  }
  if (typeof headers === 'object' && headers !== null) {
    return parseRetryAfter(headers as HeadersLike, now);
  }
  return undefined;
}

function headerValue(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const value = (headers as { get(name: string): string | null | undefined }).get(name);
    return typeof value === 'string' ? value : undefined;
  }
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') return first;
    if (typeof first === 'number') return String(first);
    return undefined;
  }
  return undefined;
}
