import type { ChoiceOption } from '../core/decision/decision-model.js';
import { tokenize } from './tokenize.js';

/**
 * Names a router gives its route for whatever the others do not cover. Such a route's description
 * ("general questions on any subject") is close to every message, so scored by similarity it
 * attracts everything; it is scored as "no other option fits well" instead.
 */
const CATCH_ALL_NAMES = new Set([
  'general',
  'other',
  'others',
  'misc',
  'miscellaneous',
  'default',
  'fallback',
  'catchall',
  'unknown',
  'everything',
  'anything',
]);

/** Words that may stand beside one of those in such a name: `general-questions`, `other requests`. */
const FILLER = new Set([
  'questions',
  'question',
  'requests',
  'request',
  'topics',
  'topic',
  'chat',
  'inquiries',
  'enquiries',
  'queries',
  'stuff',
  'things',
  'help',
  'purpose',
  'else',
]);

/** Descriptions that define an option by what the other options are not. */
const CATCH_ALL_PHRASE =
  /\b(?:(?:anything|everything|all) else|not covered|catch[- ]?all|none of the (?:above|others)|(?:any )?other (?:topics?|subjects?|questions?|requests?|things|matters))\b/i;

/** Whether an option is a catch-all, by its name (`general`, `other`, `misc`…) or description. */
export function isCatchAll(option: Pick<ChoiceOption, 'name' | 'description'>): boolean {
  // `route#2`: the route's name is what the router's author chose.
  const words = tokenize(option.name.replace(/#\d+$/, ''));
  if (
    words.some((word) => CATCH_ALL_NAMES.has(word)) &&
    words.every((word) => CATCH_ALL_NAMES.has(word) || FILLER.has(word))
  ) {
    return true;
  }
  return CATCH_ALL_PHRASE.test(option.description);
}
