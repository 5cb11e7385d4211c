const REDACTED = '[REDACTED]';

/** Common credential shapes, redacted even when we were not told the key (e.g. a client's). */
const KEY_PATTERNS: [RegExp, string][] = [
  [/\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, REDACTED],
  // credentials in a URL (http://user:password@host): keep the scheme, lose who and the secret
  [/([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]*@/gi, `$1${REDACTED}@`],
];

/** Characters that continue a key: a secret is redacted only where it stands as a whole token. */
const TOKEN = 'A-Za-z0-9_-';

/**
 * Replaces every given secret (and anything shaped like an API key or URL credentials) with
 * `[REDACTED]`. Secrets of any length count, but only as whole tokens: a short key (`x`, `ollama`
 * for a local server) then never shreds ordinary words. Callers redact what the provider said,
 * not the names they add themselves (a provider named like its key keeps its name).
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let result = text;
  for (const secret of secrets) {
    if (secret === '') continue;
    const escaped = secret.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    result = result.replace(new RegExp(`(?<![${TOKEN}])${escaped}(?![${TOKEN}])`, 'g'), REDACTED);
    // a long key is never part of an ordinary word: redact it inside other text too
    if (secret.length >= 12) result = result.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of KEY_PATTERNS) {
    result = result.replace(pattern, replacement);
  }
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
