import type { ChoiceOption } from '../decision-model.js';
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

/** Descriptions that define an option by what the other options are not. */
const CATCH_ALL_PHRASE =
  /\b(?:(?:anything|everything|all) else|any other|not covered|catch[- ]?all|fall ?back|none of the (?:above|others)|other (?:topics|questions|requests|subjects|things))\b/i;

/** Whether an option is a catch-all, by its name (`general`, `other`, `misc`…) or description. */
export function isCatchAll(option: Pick<ChoiceOption, 'name' | 'description'>): boolean {
  // `route#2`: the route's name is what the router's author chose.
  const words = tokenize(option.name.replace(/#\d+$/, ''));
  if (words.length > 0 && words.length <= 2 && words.some((word) => CATCH_ALL_NAMES.has(word))) {
    return true;
  }
  return CATCH_ALL_PHRASE.test(option.description);
}
