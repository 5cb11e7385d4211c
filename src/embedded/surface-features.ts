/**
 * What the word vectors cannot see: the tokenizer keeps letters only, so digits, formulas, code and
 * quotes vanish, and a mean of word vectors forgets how long a text is. These few numbers (each
 * about 0…1) put that back: they tell `x^2 + 5x` from prose, a stack trace from a question, a
 * one-liner from a specification. The classifier of each question learns from the options'
 * examples which of them matter there.
 */
export const SURFACE_FEATURES = [
  'length',
  'numbers',
  'symbols',
  'lines',
  'sentences',
  'clauses',
  'question',
  'unknown',
  'formula',
  'quote',
  'identifier',
  'payload',
] as const;

export const SURFACE_FEATURE_COUNT = SURFACE_FEATURES.length;

/**
 * Numbers, not digits: "port 3000" has one, like "page 7", where "17 * 23" has two; counted by
 * digit, a four-digit port or year weighed like a formula's worth of digits (mean dev accuracy
 * 81.3 → 81.4 %, held-out 73.7 → 74.1 %).
 */
const NUMBER = /\d+/g;
const CODE_SYMBOL = /[{}()[\];=<>_`\\]/g;
const SENTENCE_END = /[.!?](?:\s|$)/g;
const CLAUSE_MARK = /[,;:]/g;
const FORMULA = /\d\s*[-+*/^=×÷]\s*\(?[\d a-z]|[a-z]\s*[\^=]\s*\d|\d[a-z]\b|[√π∑∫²³]/gi;
/**
 * A quoted span: double quotes, or single ones that open after a non-letter and close before one,
 * so that the apostrophes of "I'm" and "don't" in one sentence are no quote.
 */
const QUOTED = /["“][^"“”\n]{2,}["”]|(?<![\p{L}\d])['‘][^'‘’\n]{2,}?['’](?![\p{L}\d])/u;
const IDENTIFIER = /[a-z][A-Z]|\w\.\w|\w_\w|\(\)|=>|::|--\w/g;

function count(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (pattern.exec(text) !== null) n++;
  return n;
}

/**
 * The surface features of a text into `out` at `offset`. `words` and `known` are the tokenizer's
 * word count and how many of those words have vectors; `payload`, whether the text is a request
 * plus a pasted text (instruction-payload.ts), which the caller knows.
 */
export function surfaceFeatures(
  text: string,
  words: number,
  known: number,
  payload: boolean,
  out: Float64Array,
  offset: number,
): void {
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  out[offset] = Math.log1p(words) / 3 - 0.7;
  out[offset + 1] = Math.min(1, Math.log1p(count(text, NUMBER)) / 2);
  out[offset + 2] = Math.min(1, Math.log1p(count(text, CODE_SYMBOL)) / 3);
  out[offset + 3] = Math.min(1, lines / 3);
  out[offset + 4] = Math.min(1, count(text, SENTENCE_END) / 4);
  out[offset + 5] = Math.min(1, count(text, CLAUSE_MARK) / 4);
  out[offset + 6] = text.trimEnd().endsWith('?') ? 1 : 0;
  out[offset + 7] = words === 0 ? 0 : (words - known) / words;
  out[offset + 8] = Math.min(1, count(text, FORMULA) / 2);
  out[offset + 9] = QUOTED.test(text) ? 1 : 0;
  out[offset + 10] = Math.min(1, count(text, IDENTIFIER) / 2);
  // A request and the text it applies to ("summarize this: <article>"): what makes a message
  // long there is the pasted text, not the request; apart, length says how much is asked.
  out[offset + 11] = payload ? 1 : 0;
}
