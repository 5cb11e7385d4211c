import type { ChoiceOption } from '../decision-model.js';
import { STOP_WORDS } from './stop-words.js';
import { tokenize } from './tokenize.js';

/**
 * Exact-word evidence beside the word vectors: an averaged embedding blurs "MOT", "bursary" or
 * "PCN" into their neighbourhood, where keyword overlap with a route's examples keeps them (on a
 * clinic desk of the blind evaluation, plain keyword overlap beat the model). Per option, the
 * share of the message's content words (lightly stemmed) found in the option's name,
 * description and examples, each word weighted by how few of the question's options use it.
 */
export class LexicalOverlap {
  /** Per stem: the options whose texts use it. */
  private readonly users = new Map<string, number[]>();
  private readonly unseenWeight: number;

  constructor(options: readonly ChoiceOption[]) {
    options.forEach((option, i) => {
      const texts = [option.name.replace(/[-_.#\d]+/g, ' '), option.description];
      for (const text of [...texts, ...(option.examples ?? [])]) {
        for (const term of contentStems(text)) {
          const users = this.users.get(term);
          if (!users) this.users.set(term, [i]);
          else if (users.at(-1) !== i) users.push(i);
        }
      }
    });
    // A word no option uses still counts in the message's total, as much as the rarest: a
    // message that shares one word with an option among many it does not is weak evidence.
    this.unseenWeight = Math.log(1 + options.length);
  }

  /** Adds `weight` × each option's overlap with the weighted words of `terms` to `out`. */
  addScores(terms: ReadonlyMap<string, number>, weight: number, out: Float64Array): void {
    let total = 0;
    for (const [term, termWeight] of terms) {
      const users = this.users.get(term);
      total += termWeight * (users ? this.idf(users, out.length) : this.unseenWeight);
    }
    if (total === 0) return;
    for (const [term, termWeight] of terms) {
      const users = this.users.get(term);
      if (!users) continue;
      const share = (weight * termWeight * this.idf(users, out.length)) / total;
      for (const i of users) out[i]! += share;
    }
  }

  private idf(users: readonly number[], options: number): number {
    return Math.log(1 + options / users.length);
  }
}

/** The weighted content stems of weighted texts (a stem's weight: its heaviest text's). */
export function weightedStems(
  texts: readonly { text: string; weight: number }[],
): Map<string, number> {
  const terms = new Map<string, number>();
  for (const { text, weight } of texts) {
    for (const term of contentStems(text)) {
      if ((terms.get(term) ?? 0) < weight) terms.set(term, weight);
    }
  }
  return terms;
}

/** The distinct stems of a text's words but stop words and one-letter ones. */
export function contentStems(text: string): Set<string> {
  const stems = new Set<string>();
  for (const word of tokenize(text)) {
    if (word.length > 1 && !STOP_WORDS.has(word)) stems.add(stem(word));
  }
  return stems;
}

/**
 * A light suffix stripper: plurals, -ing, -ed, -ly and a final e, so that "charged", "charges"
 * and "charge" meet, and "payments" meets "payment". Not Porter: a few rules are enough for
 * overlap, and they never merge two short words.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('ly')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}
