import { z } from 'zod';
import { problemIssue, unknownName } from './config-wording.js';
import { duration } from './duration-field.js';

/**
 * The field kinds of configuration schemas. `${ENV}` interpolation yields strings, so a numeric
 * field takes "15000" as 15000 and a boolean one "true"; anything else is left for the check
 * to reject with the field's path.
 */
const fromEnvNumber = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
    ? Number(value)
    : value;

const fromEnvBoolean = (value: unknown) =>
  value === 'true' ? true : value === 'false' ? false : value;

const INTEGER = 'must be an integer number';

/**
 * An integer of at least `min`. Not `z.int()`: its failure aborts the parse, and the
 * cross-reference checks of the whole file must still run to list every problem at once.
 */
export function integer(min: number) {
  return z.preprocess(
    fromEnvNumber,
    z
      .number({
        error: (issue) =>
          issue.code === 'invalid_type' && issue.input !== undefined ? INTEGER : undefined,
      })
      .refine(Number.isInteger, INTEGER)
      .min(min),
  );
}

/** A number within `[min, max]`. */
export function decimal(min: number, max = Infinity) {
  const number = z.number().min(min);
  return z.preprocess(fromEnvNumber, max === Infinity ? number : number.max(max));
}

/** A number above zero. */
export function positive() {
  return z.preprocess(fromEnvNumber, z.number().positive());
}

export function flag() {
  return z.preprocess(fromEnvBoolean, z.boolean());
}

/** A name or other string that must not be empty. */
export function text() {
  return z.string().min(1);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values);
}

/**
 * The parts an app needs to write its own sections of the file in the library's style: the
 * field kinds (durations included), and the wording of a name that refers to nothing and of a
 * refinement's problem.
 */
export const configSchemaParts = Object.freeze({
  integer,
  decimal,
  positive,
  flag,
  text,
  oneOf,
  unknownName,
  problemIssue,
  /** A duration: `'250ms'`, `'20s'`, `'5m'`, `'1h'` or whole ms; the output is ms. */
  duration,
});
