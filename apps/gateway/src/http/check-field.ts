import { registerDecorator } from 'class-validator';

/**
 * A body field checked by `problem` (undefined when fine), whose message is the field's name
 * followed by the problem: for the wire formats' unions that class-validator's decorators
 * cannot describe (input items, content blocks, tool lists).
 */
export function CheckField(
  problem: (value: unknown, body: Record<string, unknown>) => string | undefined,
): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'checkField',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args) =>
          `$property${problem(args.value, args.object as Record<string, unknown>) ?? ''}`,
      },
      validator: {
        validate: (value, args) =>
          problem(value, (args?.object ?? {}) as Record<string, unknown>) === undefined,
      },
    });
}
