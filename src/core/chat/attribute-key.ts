/** Attributes of a call (`ChatCallOptions.attributes`) or of an answer (`AiMessage.attributes`). */
export type Attributes = Readonly<Record<string, unknown>>;

/**
 * One key of those attributes with the type of its value: the only reader and writer of the key,
 * so that every part reads it the same way. Attributes are plain data (they go through JSON on a
 * tool loop), so a value of another type reads as absent.
 */
export interface AttributeKey<T> {
  /** The key as it appears in the attributes. */
  readonly name: string;
  /** The value under the key, when it has the key's type. */
  of(attributes: Attributes | undefined): T | undefined;
  /** `{ [name]: value }`, to spread into attributes. */
  entry(value: T): Record<string, T>;
}

export function attributeKey<T>(name: string, is: (value: unknown) => value is T): AttributeKey<T> {
  return {
    name,
    of: (attributes) => {
      const value = attributes?.[name];
      return is(value) ? value : undefined;
    },
    entry: (value) => ({ [name]: value }),
  };
}

export const isString = (value: unknown): value is string => typeof value === 'string';
export const isNumber = (value: unknown): value is number => typeof value === 'number';
export const isTrue = (value: unknown): value is true => value === true;
