import type { z } from 'zod';
import { quoteNames } from '../core/errors/quote-names.js';
import { didYouMean } from '../core/errors/closest-name.js';
import { joinPath } from './invalid-model-router-config.exception.js';

/**
 * The wording of every configuration fault, whichever section (the library's or an app's
 * extension) it sits in: one sentence per fault, after the path (`routers.main.cooldownMs: …`).
 */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'must be a string',
  number: 'must be a number',
  int: 'must be an integer number',
  boolean: 'must be a boolean value',
  object: 'must be a mapping',
  record: 'must be a mapping',
  array: 'must be a list',
};

/**
 * `unknown model 'x'; known models: 'a', 'b'`: a name that refers to nothing declared, with
 * `; did you mean 'a'?` when one of them is a letter or two away.
 */
export function unknownName(kind: string, name: string, known: readonly string[]): string {
  return `unknown ${kind} '${name}'; known ${kind}s: ${quoteNames(known)}${didYouMean(name, known)}`;
}

/** The faults of names that the schema and the module's own check of options share. */
export const NAME_FAULTS = Object.freeze({
  noRouter: 'routers: at least one router is required',
  blank: (section: string) => `${section}: a name is blank`,
  routerAndModel: (name: string) =>
    `routers.${name}: '${name}' is both a router and a model; give each a unique name`,
});

/** A problem a refinement found, already worded with its path (`budgets[0].name: …`). */
export function problemIssue(problem: string): z.core.$ZodRawIssue {
  return { code: 'custom', path: [], message: problem, params: { problem }, input: undefined };
}

/** The per-parse error map of configuration schemas: the message of each built-in issue. */
export const configIssueMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      // a field that is absent is missing, not "every bound it would fail"
      if (issue.input === undefined) return 'required';
      return TYPE_WORDS[issue.expected] ?? `must be ${issue.expected}`;
    case 'too_small':
      if (issue.origin === 'array') {
        return Number(issue.minimum) === 1
          ? 'must not be an empty list'
          : `must list at least ${String(issue.minimum)} items`;
      }
      if (issue.origin === 'string') return 'must not be empty';
      if (!issue.inclusive && Number(issue.minimum) === 0) return 'must be a positive number';
      return issue.inclusive
        ? `must not be less than ${String(issue.minimum)}`
        : `must be greater than ${String(issue.minimum)}`;
    case 'too_big':
      return issue.inclusive
        ? `must not be greater than ${String(issue.maximum)}`
        : `must be less than ${String(issue.maximum)}`;
    case 'invalid_value':
      return `must be one of the following values: ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys': {
      // the object that refused the key knows the keys it takes; one message per key
      const shape = (issue.inst as { shape?: object } | undefined)?.shape;
      if (!shape) return 'unknown setting';
      const known = Object.keys(shape);
      const hint = issue.keys.length === 1 ? didYouMean(issue.keys[0]!, known) : '';
      return `unknown setting; known: ${known.join(', ')}${hint}`;
    }
    default:
      return undefined;
  }
};

/** Every issue of a failed parse as `path: message`, one line per fault. */
export function configProblems(issues: readonly z.core.$ZodIssue[], base: PropertyKey[] = []) {
  const problems: string[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === 'custom' && typeof issue.params?.problem === 'string') {
      problems.push(issue.params.problem);
    } else if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push(`${render([...path, key])}: ${issue.message}`);
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      problems.push(...unionProblems(issue, path));
    } else {
      problems.push(`${render(path)}: ${issue.message}`);
    }
  }
  return problems;
}

/**
 * A union (`auth: none | { keys… }`, `resilience: false | { … }`): when the value has the type of
 * exactly one option, that option's problems; else the union's own message.
 */
function unionProblems(issue: z.core.$ZodIssueInvalidUnion, path: PropertyKey[]): string[] {
  const matching = issue.errors.filter((errors) => !wrongType(errors));
  return matching.length === 1
    ? configProblems(matching[0]!, path)
    : [`${render(path)}: ${issue.message}`];
}

function wrongType(errors: readonly z.core.$ZodIssue[]): boolean {
  return errors.some(
    (error) =>
      error.path.length === 0 && (error.code === 'invalid_type' || error.code === 'invalid_value'),
  );
}

function render(path: readonly PropertyKey[]): string {
  const text = path.reduce<string>(
    (at, segment) => joinPath(at, typeof segment === 'number' ? segment : String(segment)),
    '',
  );
  return text || '(root)';
}
