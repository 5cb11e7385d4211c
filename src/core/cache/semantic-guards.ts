/**
 * The facts of a question that an embedding blurs but that change its answer: whether it is
 * negated, which numbers, named entities and code identifiers it names. Two questions whose
 * guards differ are never a semantic hit, however close their vectors ("Is Paris not the
 * capital of France?" vs "Is Paris the capital of France?"; "…of France?" vs "…of Germany?").
 */
export function semanticGuard(text: string): string {
  const negated = NEGATION.test(text) ? 'not' : '';
  const numbers = new Set<string>();
  const entities = new Set<string>();
  const identifiers = new Set<string>();
  for (const match of text.matchAll(CODE_SPAN)) identifiers.add(match[1]!.trim());
  for (const match of text.matchAll(NUMBER))
    numbers.add(String(Number(match[0].replace(/,/g, ''))));
  let sentenceStart = true;
  for (const match of text.matchAll(WORD)) {
    // a sentence's full stop or a closing quote is not part of the word
    const word = match[0].replace(/[.'’]+$/, '');
    const lower = word.toLowerCase();
    if (NUMBER_WORDS.has(lower)) numbers.add(lower);
    if (isIdentifier(word)) identifiers.add(word);
    else if (/^\p{Lu}/u.test(word) && !(sentenceStart && COMMON_OPENERS.has(lower))) {
      // a capitalised word is a name unless it merely opens a sentence ("What", "Is", "Tell")
      entities.add(lower.replace(/'s$/, ''));
    }
    const after = text.slice(match.index + word.length).match(/^[\s"'()]*([.!?:;\n])?/);
    sentenceStart = after?.[1] !== undefined;
  }
  return [
    negated,
    [...numbers].toSorted().join(','),
    [...entities].toSorted().join(','),
    [...identifiers].toSorted().join(','),
  ].join('|');
}

/** `not`, `no`, `never`, `n't` and their kin, as words. */
const NEGATION =
  /\b(?:not|no|never|none|nobody|nothing|neither|nor|without|cannot|dont|doesnt|didnt|isnt|arent|wasnt|werent|cant|couldnt|wont|wouldnt|shouldnt|hasnt|havent|hadnt)\b|n['’]t\b/i;

const NUMBER = /\d[\d,]*(?:\.\d+)?/g;
const CODE_SPAN = /`([^`]{1,200})`/g;
const WORD = /[\p{L}_$][\p{L}\p{N}_$.'’]*(?:\(\))?/gu;

function isIdentifier(word: string): boolean {
  return (
    /\p{Ll}\p{Lu}/u.test(word) || // camelCase
    /[\p{L}\p{N}]_[\p{L}\p{N}]/u.test(word) || // snake_case
    word.endsWith('()') || // call()
    /[\p{L}\p{N}]\.[\p{L}_$]/u.test(word) || // a.b
    word.includes('$')
  );
}

const NUMBER_WORDS = new Set(
  (
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen ' +
    'fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ' +
    'ninety hundred thousand million billion first second third fourth fifth half twice'
  ).split(' '),
);

/** Words that open a sentence capitalised without naming anything. */
const COMMON_OPENERS = new Set(
  (
    "what what’s what's whats who whom whose which where when why how is are was were do does " +
    "did can could should would will shall may might must has have had the a an i i'm it its " +
    "it's this that these those there here my our your we you they he she please tell give " +
    'show list explain describe write summarize summarise translate find name compare define ' +
    'and or but so if in on at for of to from with by about hi hello hey ok okay yes thanks'
  ).split(' '),
);
