import type { z } from 'zod';

/**
 * The one wording of a body's problems on every surface: `<path> <problem>`, the path dotted as
 * the error's `param` is (`messages.0.content`). A missing field is reported as missing, and only
 * as missing: the bounds it would also fail are not listed.
 */

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

export interface BodyProblem {
  path: string;
  message: string;
}

/** zod's message for one issue (given to `safeParse`); a schema's own `error` wins over it. */
export function wording(issue: RawIssue): string | undefined {
  // whatever a field's shape, its absence is its one problem
  if (issue.input === undefined && issue.code !== 'custom') return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${withArticle(issue.expected)}`;
    case 'too_small':
      return tooSmall(issue.origin, Number(issue.minimum), issue.inclusive !== false);
    case 'too_big':
      return tooBig(issue.origin, Number(issue.maximum), issue.inclusive !== false);
    case 'invalid_value':
      return `must be ${issue.values.length > 1 ? 'one of ' : ''}${issue.values.map(String).join(', ')}`;
    case 'invalid_union':
      // a discriminated union whose tag is unknown; other unions name their shapes themselves
      return 'options' in issue && Array.isArray(issue.options)
        ? `must be one of ${(issue.options as unknown[]).filter((o) => o !== undefined).join(', ')}`
        : 'is not one of the accepted shapes';
    default:
      return undefined;
  }
}

function withArticle(type: string): string {
  const name = type === 'int' ? 'integer' : type;
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

function tooSmall(origin: string, minimum: number, inclusive: boolean): string {
  if (origin === 'array' || origin === 'set') {
    return minimum === 1 ? 'must be a non-empty array' : `must contain at least ${minimum} items`;
  }
  if (origin === 'string') {
    return minimum === 1 ? 'must not be empty' : `must be at least ${minimum} characters long`;
  }
  return inclusive ? `must be at least ${minimum}` : `must be greater than ${minimum}`;
}

function tooBig(origin: string, maximum: number, inclusive: boolean): string {
  if (origin === 'array' || origin === 'set') return `must contain at most ${maximum} items`;
  if (origin === 'string') return `must be at most ${maximum} characters long`;
  return inclusive ? `must be at most ${maximum}` : `must be less than ${maximum}`;
}

/**
 * The problems of a failed parse, in body order. A union whose input has the shape of one of
 * its branches (an array of parts, an object of the right type) reports that branch's problems,
 * which name the field at fault; otherwise the union's own message.
 */
export function bodyProblems(issues: readonly Issue[], prefix: PropertyKey[] = []): BodyProblem[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branch = matchedBranch(issue.errors);
      if (branch !== undefined) return bodyProblems(branch, path);
    }
    const index = path.at(-1);
    if (issue.code === 'invalid_type' && issue.expected === 'object' && typeof index === 'number') {
      // a list of objects holding something else is the list's problem, as the DTOs reported it
      const list = path.slice(0, -1).map(String).join('.');
      return [{ path: list, message: `must be an array of objects (item ${index} is not one)` }];
    }
    return [{ path: path.map(String).join('.'), message: issue.message }];
  });
}

/**
 * The branch whose type matched (its problems are inside the value, or a bound of the value
 * itself), the one with the fewest problems.
 */
function matchedBranch(branches: readonly (readonly Issue[])[]): readonly Issue[] | undefined {
  let best: readonly Issue[] | undefined;
  for (const branch of branches) {
    const inside = branch.every(
      (issue) => issue.path.length > 0 || issue.code === 'too_small' || issue.code === 'too_big',
    );
    if (inside && (best === undefined || branch.length < best.length)) best = branch;
  }
  return best;
}

/**
 * `messages.0.role must be …`, `input.0.type 'x' is not supported`; a problem worded as a
 * sentence of its own follows a colon.
 */
export function describeProblem({ path, message }: BodyProblem): string {
  if (path === '') return message;
  return /^((must|is|are|names|has) |')/.test(message)
    ? `${path} ${message}`
    : `${path}: ${message}`;
}
