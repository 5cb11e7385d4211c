import { scrubCredentials } from 'nest-model-router/core';
import type { WireError } from '../openai/openai-error.js';

const SECRET_KEY = /(api[_-]?key|password|secret|token|^key)$/i;
/** Shorter values (`x`) would shred ordinary words, and guard nothing (plain-word keys are refused). */
const MIN_SECRET_LENGTH = 6;
const REDACTED = '[REDACTED]';

/**
 * The values of a configuration that no answer or log may carry: every string under a key named
 * like a credential (`apiKey`, `password`, `secret`, `key`…) and the user and password of every
 * URL (a `baseURL`, the state store's `url`). Providers already keep their own key out of their
 * messages; this is the gateway's last line, for what a provider or SDK does not know is secret.
 */
export function configSecrets(value: unknown, found = new Set<string>(), key = ''): Set<string> {
  if (typeof value === 'string') {
    if (SECRET_KEY.test(key)) add(found, value);
    for (const part of urlCredentials(value)) add(found, part);
  } else if (Array.isArray(value)) {
    for (const item of value) configSecrets(item, found, key);
  } else if (typeof value === 'object' && value !== null) {
    for (const [name, item] of Object.entries(value)) configSecrets(item, found, name);
  }
  return found;
}

/** Removes the configuration's secrets (and anything shaped like a credential) from text. */
export class SecretRedactor {
  private readonly secrets: string[];

  constructor(secrets: Iterable<string> = []) {
    // longest first, so a secret that contains another is removed whole
    this.secrets = [...secrets].toSorted((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) result = result.split(secret).join(REDACTED);
    return scrubCredentials(result);
  }

  redactWire(wire: WireError): WireError {
    const { error } = wire.body;
    return { ...wire, body: { error: { ...error, message: this.redact(error.message) } } };
  }
}

function add(found: Set<string>, value: string): void {
  const trimmed = value.trim();
  if (trimmed.length < MIN_SECRET_LENGTH) return;
  found.add(trimmed);
  try {
    const decoded = decodeURIComponent(trimmed);
    if (decoded !== trimmed) found.add(decoded);
    const encoded = encodeURIComponent(trimmed);
    if (encoded !== trimmed) found.add(encoded);
  } catch {
    // not URL-encoded
  }
}

function urlCredentials(text: string): string[] {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return [];
  try {
    const { username, password } = new URL(text);
    return [username, password].filter(Boolean).map((part) => decodeURIComponent(part));
  } catch {
    return [];
  }
}
