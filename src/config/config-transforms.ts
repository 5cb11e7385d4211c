import { Transform } from 'class-transformer';

/**
 * `${ENV}` interpolation yields strings: a numeric field accepts "15000" as 15000. Anything
 * else is left alone for the validators to reject with the field's name.
 */
export function ToNumber(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
      ? Number(value)
      : value,
  );
}

/** Accepts "true"/"false" (from `${ENV}`) as booleans. */
export function ToBoolean(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  );
}
