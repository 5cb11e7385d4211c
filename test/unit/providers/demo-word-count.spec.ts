// The demo model counts and quotes words without splitting the whole text (a body of 8 MiB made a
// million strings per call): the same counts and summaries as the regular expressions gave.
import { describe, expect, it } from '@jest/globals';
import { countWords, demoAnswerText } from '../../../src/providers/local/demo-answer.js';

/** Every code unit `/\s/` matches, some that it does not, and surrogate pairs. */
const ALPHABET = [
  ...'\t\n\v\f\r \u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff',
  ...'ab.,é€中\u200b\u180e',
  '😀',
];

function randomText(seed: number, length: number): string {
  let state = seed;
  let text = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    text += ALPHABET[state % ALPHABET.length];
  }
  return text;
}

const texts = Array.from({ length: 200 }, (_, seed) => randomText(seed + 1, (seed * 7) % 90));

describe('the demo model’s words', () => {
  it('counts as many words as /\\S+/g matches', () => {
    for (const text of texts) expect(countWords(text)).toBe((text.match(/\S+/g) ?? []).length);
  });

  it('quotes the first words of the question as splitting on /\\s+/ did', () => {
    for (const text of texts) {
      const question = text.trim() || '(no question)';
      const all = question.split(/\s+/).filter(Boolean);
      const brief = all.length <= 12 ? all.join(' ') : `${all.slice(0, 12).join(' ')}…`;
      const answer = demoAnswerText(
        { messages: [{ role: 'user', content: text }] },
        { model: 'demo' },
        'brief',
      );
      expect(answer).toBe(`Model 'demo' answering. In short: ${brief}`);
    }
  });
});
