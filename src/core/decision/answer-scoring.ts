import { InvalidDecisionResponseException } from '../errors/exceptions.js';
import type { ChoiceOptions } from './choice-options.js';
import type { ChoiceAnswer } from './decision-model.js';

export interface ScoredAnswer {
  /** The winning route. */
  readonly route: string;
  /** Route name → summed probability of its options; absent when the model reported none. */
  readonly probabilities?: Record<string, number>;
}

/**
 * Turns an answer into a route. With probabilities, each route scores the sum of its options'
 * probabilities, the highest wins and ties go to the earlier route (`value` is then ignored).
 * Without, the route owning `value` wins. Anything not offered is an invalid response.
 */
export function scoreAnswer(answer: ChoiceAnswer, choice: ChoiceOptions): ScoredAnswer {
  if (typeof answer !== 'object' || answer === null) {
    throw new InvalidDecisionResponseException(
      `Decision model returned ${String(answer)} instead of a ChoiceAnswer ({ value, probabilities? })`,
    );
  }
  const reported = answer.probabilities;
  if (reported === undefined || reported === null || Object.keys(reported).length === 0) {
    return { route: routeOfValue(answer.value, choice) };
  }
  if (typeof reported !== 'object') {
    throw new InvalidDecisionResponseException(
      `Decision model returned probabilities of type ${typeof reported}; expected an object of option name → number`,
    );
  }

  const { routeNames } = choice;
  const scores = new Map<string, number>(routeNames.map((name) => [name, 0]));
  for (const [option, probability] of Object.entries(reported)) {
    const route = choice.routeOf.get(option);
    if (route === undefined) throw notOffered('a probability for', option, choice);
    if (typeof probability !== 'number' || !Number.isFinite(probability)) {
      throw new InvalidDecisionResponseException(
        `Decision model returned probability ${String(probability)} for option '${option}'; expected a finite number`,
      );
    }
    scores.set(route, (scores.get(route) ?? 0) + probability);
  }

  let best = routeNames[0];
  for (const name of routeNames) {
    // Strictly greater: on a tie the earlier route keeps the lead.
    if ((scores.get(name) ?? 0) > (scores.get(best) ?? 0)) best = name;
  }
  return { route: best, probabilities: Object.fromEntries(scores) };
}

function routeOfValue(value: unknown, choice: ChoiceOptions): string {
  const route = typeof value === 'string' ? choice.routeOf.get(value) : undefined;
  if (route === undefined) throw notOffered('the value', value, choice);
  return route;
}

function notOffered(what: string, option: unknown, choice: ChoiceOptions): Error {
  const offered = [...choice.routeOf.keys()].map((name) => `'${name}'`).join(', ');
  const shown = typeof option === 'string' ? `'${option}'` : String(option);
  return new InvalidDecisionResponseException(
    `Decision model returned ${what} ${shown}, which is not an offered option (offered: ${offered})`,
  );
}
