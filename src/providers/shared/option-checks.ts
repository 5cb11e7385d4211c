import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { plainWordKeyProblem } from './plain-word-key.js';

/** Start-up checks for provider options; each error names the class, the model and the field. */
export class OptionChecks {
  constructor(private readonly owner: string) {}

  fail(field: string, problem: string): never {
    throw new InvalidConfigurationException(`${this.owner}: options.${field} ${problem}`);
  }

  nonEmptyString(field: string, value: unknown): void {
    if (typeof value !== 'string' || value.trim() === '')
      this.fail(field, `must be a non-empty string (got ${describe(value)})`);
  }

  optionalString(field: string, value: unknown): void {
    if (value !== undefined) this.nonEmptyString(field, value);
  }

  /** An API key: a non-empty string that is not a provider's name (see plain-word-key.ts). */
  optionalApiKey(field: string, value: unknown, providerNames: (string | undefined)[]): void {
    if (value === undefined) return;
    this.nonEmptyString(field, value);
    const problem = plainWordKeyProblem(value as string, providerNames);
    if (problem !== undefined) this.fail(field, problem);
  }

  optionalUrl(field: string, value: unknown): void {
    if (value === undefined) return;
    this.nonEmptyString(field, value);
    // `localhost:11434/v1` parses, with `localhost:` as its scheme: only http(s) reaches a server
    if (!URL.canParse(value as string) || !/^https?:$/.test(new URL(value as string).protocol)) {
      this.fail(
        field,
        `must be an absolute URL such as http://localhost:11434/v1 (got ${describe(value)})`,
      );
    }
    if (hasCredentials(value as string)) {
      this.fail(field, CREDENTIALS_IN_URL);
    }
  }

  optionalInteger(field: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): void {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.fail(
        field,
        `must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`} (got ${describe(value)})`,
      );
    }
  }

  optionalPositiveNumber(field: string, value: unknown): void {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      this.fail(field, `must be a positive number of milliseconds (got ${describe(value)})`);
    }
  }

  optionalOneOf(field: string, value: unknown, allowed: readonly string[]): void {
    if (value !== undefined && !allowed.includes(value as string)) {
      this.fail(
        field,
        `must be one of ${allowed.map((a) => `'${a}'`).join(', ')} (got ${describe(value)})`,
      );
    }
  }

  optionalBoolean(field: string, value: unknown): void {
    if (value !== undefined && typeof value !== 'boolean')
      this.fail(field, `must be true or false (got ${describe(value)})`);
  }

  /** `{ connections?, keepAliveTimeoutMs?, dispatcher? }` of the own HTTP path. */
  optionalHttp(field: string, value: unknown): void {
    if (value === undefined) return;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(field, 'must be an object ({ connections?, keepAliveTimeoutMs?, dispatcher? })');
    const http = value as Record<string, unknown>;
    this.optionalInteger(`${field}.connections`, http.connections, 1);
    this.optionalPositiveNumber(`${field}.keepAliveTimeoutMs`, http.keepAliveTimeoutMs);
    const dispatcher = http.dispatcher as { request?: unknown } | undefined;
    if (dispatcher !== undefined && typeof dispatcher?.request !== 'function')
      this.fail(`${field}.dispatcher`, 'must be an undici Dispatcher (with a request method)');
  }

  optionalHeaders(field: string, value: unknown): void {
    if (value === undefined) return;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(field, 'must be an object of header names to string values');
    for (const [name, header] of Object.entries(value)) {
      if (typeof header !== 'string')
        this.fail(`${field}.${name}`, `must be a string (got ${describe(header)})`);
    }
  }
}

/**
 * Fetch refuses a URL with `user:password@` ("Request cannot be constructed from a URL that
 * includes credentials: …", the password in the message): no request would ever be sent.
 */
export const CREDENTIALS_IN_URL =
  'must not include credentials (user:password@): no request can be sent to such a URL; ' +
  'give the key as apiKey, or an Authorization header in headers';

/** Whether an absolute URL carries a user name or password. */
export function hasCredentials(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== '';
}

/** A value for an error message; strings are quoted, never anything that could be a secret. */
function describe(value: unknown): string {
  if (typeof value === 'string') {
    if (value.length > 40 || value.includes('@')) return `a string of ${value.length} characters`;
    return `'${value}'`;
  }
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}
