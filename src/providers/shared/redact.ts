const REDACTED = '[REDACTED]';

/** Common credential shapes, redacted even when we were not told the key (e.g. a client's). */
const KEY_PATTERNS: RegExp[] = [
  /\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
];

/** Replaces every given secret (and anything shaped like an API key) with `[REDACTED]`. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let result = text;
  for (const secret of secrets) {
    // very short "keys" (e.g. 'x' for a local server) would shred ordinary words
    if (secret.length >= 6) result = result.split(secret).join(REDACTED);
  }
  for (const pattern of KEY_PATTERNS) result = result.replace(pattern, REDACTED);
  return result;
}

/**
 * Redacts, in place, an SDK error that we keep as `cause`: its message, stack and the strings of
 * its parsed error body. The SDK errors carry the provider's message, which may echo the key.
 */
export function scrubError(error: unknown, secrets: readonly string[]): void {
  if (typeof error !== 'object' || error === null) return;
  const target = error as { message?: unknown; stack?: unknown; error?: unknown };
  for (const key of ['message', 'stack'] as const) {
    if (typeof target[key] === 'string') {
      try {
        Object.defineProperty(error, key, {
          value: redactSecrets(target[key] as string, secrets),
          writable: true,
          configurable: true,
          enumerable: false,
        });
      } catch {
        // a frozen error keeps its text; it only travels as `cause`
      }
    }
  }
  scrubStrings(target.error, secrets, 0);
}

function scrubStrings(value: unknown, secrets: readonly string[], depth: number): void {
  if (typeof value !== 'object' || value === null || depth > 4) return;
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === 'string') {
      try {
        (value as Record<string, unknown>)[key] = redactSecrets(inner, secrets);
      } catch {
        // read-only property: leave it
      }
    } else {
      scrubStrings(inner, secrets, depth + 1);
    }
  }
}
