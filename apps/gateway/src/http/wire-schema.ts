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

/** The longest model name a request may use (router, model or `provider/model-id`). */
export const MAX_MODEL_NAME_LENGTH = 256;

/**
 * What a response header can carry: printable Latin-1, no control characters (C0, DEL, C1).
 * Served names go back in `x-model-router-model`, so a name outside it is refused with a 400
 * before any provider is called, on every surface, rather than failing the answer afterwards.
 */
const HEADER_SAFE = /^[\x20-\x7e\xa0-\xff]*$/;

/**
 * A model name: 1 to 256 characters of printable Latin-1, as a header can carry it. The message
 * never repeats the name (it may hold anything).
 */
export const modelName = nonEmpty
  .max(MAX_MODEL_NAME_LENGTH, `must be at most ${MAX_MODEL_NAME_LENGTH} characters long`)
  .refine(
    (name) => HEADER_SAFE.test(name),
    'must be printable Latin-1 text without control characters (model names are sent back in the x-model-router-model header)',
  );

/**
 * The name of a tool a request offers: models call it back by that name, so the answer repeats
 * it; bounded as model names are (OpenAI and Anthropic take 64 characters).
 */
export const toolName = nonEmpty.max(
  MAX_MODEL_NAME_LENGTH,
  `must be at most ${MAX_MODEL_NAME_LENGTH} characters long`,
);

/**
 * A per-request failover list after `model` (OpenRouter's extension): at most 10 names; an empty
 * one is no fallback, on every surface.
 */
export function failoverList() {
  return z.array(modelName).max(10).nullish();
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
