import { z } from 'zod';

/** Pieces the surfaces' body schemas share. */

/** A non-empty string (ids, names). */
export const nonEmpty = z.string().min(1);

/**
 * A JSON object passed on as it is (a tool's JSON schema, a tool call's input): checked to be an
 * object, neither copied nor walked (the body's bounds already limit its size and depth).
 */
export const jsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an object') },
);

/**
 * A model name of at most 256 characters, counted in code points as the previous validator did,
 * so 256 emoji are a valid name.
 */
export const modelName = nonEmpty.refine(
  (name) => name.length <= 256 || [...name].length <= 256,
  'must be at most 256 characters long',
);

/** A per-request failover list after `model` (OpenRouter's extension): at most 10 names. */
export function failoverList(minItems: 0 | 1) {
  return z.array(z.string()).min(minItems).max(10).nullish();
}

/**
 * The wording of a value that fits none of a field's shapes; a missing field is left to
 * `wording`, which reports it as missing.
 */
export function shapes(message: string) {
  return (issue: z.core.$ZodRawIssue): string | undefined =>
    issue.input === undefined ? undefined : message;
}

/**
 * The wording of a tagged union's unknown tag (`type`, `role`): a tag the gateway knows but does
 * not serve is refused with its reason; `otherwise` words any other tag (default: the tags it
 * takes, as `wording` does).
 */
export function unknownTag(
  tag: string,
  reasons: Readonly<Record<string, string>>,
  otherwise?: (value: string) => string,
) {
  return (issue: z.core.$ZodRawIssue): string | undefined => {
    if (issue.code !== 'invalid_union') return undefined;
    const value = (issue.input as Record<string, unknown> | undefined)?.[tag];
    if (typeof value === 'string' && Object.hasOwn(reasons, value)) return reasons[value];
    return otherwise?.(String(value).slice(0, 40));
  };
}

/**
 * A `tool_choice` that forces a tool must name one of the offered tools (OpenAI and Anthropic
 * refuse one they were not offered, and so do we): the problem for a body's `.check`, or none.
 */
export function unofferedToolIssue(
  forced: { name: string; input: unknown } | undefined,
  offered: readonly string[] | undefined,
  kind: 'tool' | 'function',
): z.core.$ZodRawIssue | undefined {
  if (forced === undefined || offered?.includes(forced.name)) return undefined;
  return {
    code: 'custom',
    input: forced.input,
    path: ['tool_choice'],
    message: `names the ${kind} '${forced.name.slice(0, 64)}', which is not one of the tools`,
  };
}
