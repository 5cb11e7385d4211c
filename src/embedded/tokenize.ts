/**
 * Splits text into lowercase words the way the shipped vectors were built: letters only, so
 * digits, punctuation and symbols separate words. English contractions are expanded the way GloVe
 * saw them as separate words (`don't` → `do not`, `we'll` → `we will`); a possessive `'s` is dropped.
 * Other apostrophes (`l'eau`, `o'clock`) split the word.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const lowered = text.toLowerCase();
  WORD.lastIndex = 0;
  for (let match = WORD.exec(lowered); match !== null; match = WORD.exec(lowered)) {
    const word = match[0];
    if (!APOSTROPHE.test(word)) {
      tokens.push(word);
      continue;
    }
    pushWithApostrophes(word.replace(APOSTROPHES, "'"), tokens);
  }
  return tokens;
}

/** A run of letters, with apostrophes allowed inside it. */
const WORD = /\p{L}+(?:['’‘]\p{L}+)*/gu;
const APOSTROPHE = /['’‘]/;
const APOSTROPHES = /['’‘]/g;

const SUFFIXES: Readonly<Record<string, string | undefined>> = {
  s: undefined,
  re: 'are',
  ve: 'have',
  ll: 'will',
  m: 'am',
  d: 'would',
};

/** Stems whose `n't` form is irregular. */
const NEGATED: Readonly<Record<string, string>> = { wo: 'will', ca: 'can', sha: 'shall', ai: 'is' };

function pushWithApostrophes(word: string, tokens: string[]): void {
  if (word.endsWith("n't") && word.indexOf("'") === word.length - 2) {
    const stem = word.slice(0, -3);
    if (stem) tokens.push(NEGATED[stem] ?? stem);
    tokens.push('not');
    return;
  }
  const parts = word.split("'");
  const last = parts[parts.length - 1]!;
  if (parts.length === 2 && last in SUFFIXES) {
    tokens.push(parts[0]!);
    const expanded = SUFFIXES[last];
    if (expanded) tokens.push(expanded);
    return;
  }
  for (const part of parts) if (part) tokens.push(part);
}
