/**
 * The fake provider's notion of a token: a word with its leading whitespace, the way BPE
 * tokenizers split text (" world"). Joining the tokens gives back the text exactly, and a prefix
 * cut at a token boundary never ends in whitespace (Anthropic rejects a prefill that does).
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [...(text.match(/\s*\S+/g) ?? [])];
  const trailing = text.length - tokens.join('').length;
  if (trailing > 0) tokens.push(text.slice(text.length - trailing));
  return tokens;
}

export function countTokens(text: string): number {
  return tokenize(text).length;
}

/** FNV-1a, 32 bit: a stable hash for ids and embedding buckets. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A deterministic id such as `chatcmpl-1a2b3c4d`, unique per (seed, sequence). */
export function fakeId(prefix: string, seed: string, sequence: number): string {
  return `${prefix}${fnv1a(`${seed}#${sequence}`).toString(16).padStart(8, '0')}`;
}
