import { registerDecorator, type ValidationArguments } from 'class-validator';

/**
 * `messages`: a non-empty array of at most `max` objects, in one decorator so that each fault
 * gets one message, and a missing list is reported as missing rather than as every bound an
 * absent value fails (class-validator runs each decorator of a property whatever the others say).
 */
export function IsMessageList(max: number): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isMessageList',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: (args: ValidationArguments) => problemOf(args.value, max) ?? '' },
      validator: { validate: (value: unknown) => problemOf(value, max) === undefined },
    });
}

function problemOf(value: unknown, max: number): string | undefined {
  if (value === undefined) return '$property is required';
  if (!Array.isArray(value)) return '$property must be an array';
  if (value.length === 0) return '$property must contain at least 1 elements';
  if (value.length > max) return `$property must contain at most ${max} messages`;
  const notObject = value.some(
    (message) => typeof message !== 'object' || message === null || Array.isArray(message),
  );
  return notObject ? 'each value in $property must be an object' : undefined;
}
