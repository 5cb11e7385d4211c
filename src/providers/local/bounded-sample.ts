/**
 * The most a demo answer may weigh, in bytes of UTF-8. A demo model has no real output limit of its
 * own, so without one a schema of many string properties (each filled from the question) or a
 * long tool result would turn a small request into an answer of any size.
 */
export const DEMO_MAX_ANSWER_BYTES = 64 * 1024;

/** The most one string value of a sample may hold, in characters: a summary, not an echo. */
const MAX_STRING_CHARS = 200;

/** Schemas nested deeper than this are sampled as null: no real answer needs more. */
const MAX_DEPTH = 32;

/** A sample of a schema, and whether the byte budget cut it short. */
export interface BoundedSample {
  value: unknown;
  truncated: boolean;
}

/**
 * A JSON value shaped like a (simple) JSON schema, for `responseFormat: json` and tool arguments,
 * whose JSON text stays within `maxBytes`: string values carry at most a short summary of `hint`,
 * and once the budget is spent no further property or item is added (the sample is `truncated`,
 * as a real model's answer cut at its output limit).
 */
export function boundedSampleForSchema(
  schema: Record<string, unknown> | undefined,
  hint: string,
  maxBytes: number = DEMO_MAX_ANSWER_BYTES,
): BoundedSample {
  const builder = new SampleBuilder(shorten(hint), maxBytes);
  const value = builder.sample(schema, 0);
  return { value, truncated: builder.truncated };
}

class SampleBuilder {
  truncated = false;
  private left: number;

  constructor(
    private readonly hint: string,
    maxBytes: number,
  ) {
    this.left = maxBytes;
  }

  sample(schema: Record<string, unknown> | undefined, depth: number): unknown {
    if (depth > MAX_DEPTH) return this.leaf(null);
    const type = schema?.type;
    if (type === 'object' || (schema && 'properties' in schema)) {
      const properties = schema?.properties;
      const result: Record<string, unknown> = {};
      if (!this.spend(2)) return this.leaf(null);
      if (!properties || typeof properties !== 'object') return result;
      for (const [key, sub] of Object.entries(properties as Record<string, unknown>)) {
        // the key, its quotes, the colon and a comma
        if (!this.spend(byteLengthOfJson(key) + 2)) break;
        result[key] = this.sample(asSchema(sub), depth + 1);
        if (this.truncated) break;
      }
      return result;
    }
    if (type === 'array') {
      if (!this.spend(2)) return this.leaf(null);
      return [this.sample(asSchema(schema?.items), depth + 1)];
    }
    if (type === 'number' || type === 'integer') return this.leaf(0);
    if (type === 'boolean') return this.leaf(false);
    if (Array.isArray(schema?.enum) && schema.enum.length > 0) return this.leaf(schema.enum[0]);
    if (type === 'string') return this.leaf(this.hint);
    return schema ? this.leaf(null) : this.leaf({ answer: this.hint });
  }

  /** A scalar (or small) value if it fits, else null and the sample is cut short. */
  private leaf(value: unknown): unknown {
    if (this.spend(byteLengthOfJson(value))) return value;
    return null;
  }

  private spend(bytes: number): boolean {
    if (this.truncated || bytes > this.left) {
      this.truncated = true;
      return false;
    }
    this.left -= bytes;
    return true;
  }
}

function asSchema(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function byteLengthOfJson(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? 'null');
}

/** `text` cut to a short summary, on a word boundary where there is one. */
export function shorten(text: string, maxChars = MAX_STRING_CHARS): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${space > maxChars / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * `text` cut to at most `maxBytes` of UTF-8, never inside a character; `cut` says whether anything
 * was removed.
 */
export function capBytes(text: string, maxBytes: number): { text: string; cut: boolean } {
  // a UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4)
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) {
    return { text, cut: false };
  }
  let end = Math.min(text.length, maxBytes);
  while (end > 0 && Buffer.byteLength(text.slice(0, end)) > maxBytes) {
    end = Math.floor(end * 0.9);
  }
  // do not split a surrogate pair
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return { text: text.slice(0, end), cut: true };
}
