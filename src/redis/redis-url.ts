import { InvalidConfigurationException } from '../core/errors/exceptions.js';

const REDACTED = '***';

/** A Redis URL checked once, with its secrets set aside so nothing else has to handle them. */
export interface ParsedRedisUrl {
  /** The URL as given; only ever handed to ioredis. */
  readonly url: string;
  /** The URL with its password (user-info or `?password=`) replaced by `***`. */
  readonly redacted: string;
  /** Every spelling of the password that could end up in a message (raw and URL-decoded). */
  readonly secrets: readonly string[];
}

/**
 * Validates a `redis://` / `rediss://` URL. The error never echoes the URL: a malformed one cannot
 * be redacted reliably, and it may carry a password.
 */
export function parseRedisUrl(url: unknown, field = 'url'): ParsedRedisUrl {
  if (typeof url !== 'string' || url.trim() === '') {
    throw new InvalidConfigurationException(
      `${field} must be a redis:// or rediss:// URL, e.g. redis://:password@host:6379/0`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidConfigurationException(
      `${field} is not a valid URL; expected redis://[:password@]host[:port][/db]`,
    );
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new InvalidConfigurationException(
      `${field} must use the redis:// or rediss:// scheme, not ${parsed.protocol}//`,
    );
  }
  if (parsed.hostname === '') {
    throw new InvalidConfigurationException(`${field} has no host; expected redis://host:6379`);
  }
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) {
    throw new InvalidConfigurationException(
      `${field} has database '${db}' in its path; a Redis database is a number, e.g. /0`,
    );
  }
  const secrets = new Set<string>();
  for (const raw of [parsed.password, parsed.searchParams.get('password') ?? '']) {
    if (raw === '') continue;
    secrets.add(raw);
    secrets.add(safeDecode(raw));
    secrets.add(encodeURIComponent(safeDecode(raw)));
  }
  return { url, redacted: redactParsed(parsed), secrets: [...secrets].filter((s) => s !== '') };
}

/** The URL with any password replaced by `***`; an unparsable URL is not shown at all. */
export function redactRedisUrl(url: string): string {
  try {
    return redactParsed(new URL(url));
  } catch {
    return '<invalid redis url>';
  }
}

/** Replaces every occurrence of each secret in `text` (error messages from the client, reasons). */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join(REDACTED);
  return result;
}

function redactParsed(parsed: URL): string {
  const copy = new URL(parsed.toString());
  if (copy.password !== '') copy.password = REDACTED;
  if (copy.searchParams.has('password')) copy.searchParams.set('password', REDACTED);
  // URLSearchParams encodes `*`; keep the marker readable.
  return copy.toString().replace(/%2A%2A%2A/g, REDACTED);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
