import type { WeightedText } from '../core/decision/models/decision-input-texts.js';
import { stem } from './lexical-overlap.js';
import { FOLLOW_UP_WORDS, STOP_WORDS } from './stop-words.js';
import { tokenize } from './tokenize.js';

/** A text's terms (content stems and pairs of adjacent ones) with their weights. */
export type TermBag = ReadonlyMap<string, number>;

/**
 * The terms of an input as the learned examples' word evidence reads it: each message's content
 * stems and their adjacent pairs ("block card", "standing order"), weighted by the message's
 * weight. A last message that names no topic ("yes please", "ok go ahead") adds nothing, and the
 * earlier turns then count fully: in a conversation ending in a follow-up, they are the request.
 */
export function termBag(texts: readonly WeightedText[], lastIsFollowUp: boolean): TermBag {
  const bag = new Map<string, number>();
  const last = texts.length - 1;
  texts.forEach(({ text, weight }, i) => {
    const w = lastIsFollowUp ? (i === last ? 0 : Math.min(1, 2 * weight)) : weight;
    if (w <= 0) return;
    let previous: string | undefined;
    for (const word of tokenize(text)) {
      if (word.length < 2 || STOP_WORDS.has(word)) {
        previous = undefined;
        continue;
      }
      const term = stem(word);
      add(bag, term, w);

      if (previous !== undefined) add(bag, `${previous} ${term}`, w * PAIR_WEIGHT);
      previous = term;
    }
  });
  return bag;
}

/** A pair of stems counts this much beside a single one (it is rarer, so its IDF is higher). */
const PAIR_WEIGHT = 0.5;

function add(bag: Map<string, number>, term: string, weight: number): void {
  // a term's weight is its heaviest message's: repeating a word says little more
  if ((bag.get(term) ?? 0) < weight) bag.set(term, weight);
}

/** Whether a message names no topic of its own: stop and follow-up words only. */
export function namesNoTopic(text: string): boolean {
  for (const word of tokenize(text)) {
    if (!STOP_WORDS.has(word) && !FOLLOW_UP_WORDS.has(word)) return false;
  }
  return true;
}
