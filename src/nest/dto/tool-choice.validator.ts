import { registerDecorator, type ValidationOptions } from 'class-validator';

const MODES = ['auto', 'required', 'none'];

/**
 * `toolChoice`: `auto`, `required`, `none`, or `{ name }` naming one of `tools` (forcing that
 * function). A string keeps class-validator's IsIn message, which clients already match on.
 */
export function IsToolChoice(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isToolChoice',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args) =>
          typeof args.value === 'object' && args.value !== null
            ? '$property must be { name } naming one of the tools'
            : `$property must be one of the following values: ${MODES.join(', ')}`,
        ...options,
      },
      validator: {
        validate: (value: unknown, args) => {
          if (typeof value === 'string') return MODES.includes(value);
          const name = (value as { name?: unknown } | null)?.name;
          if (typeof name !== 'string' || name === '') return false;
          const tools = (args?.object as { tools?: unknown } | undefined)?.tools;
          return (
            Array.isArray(tools) &&
            tools.some((tool) => (tool as { name?: unknown } | null)?.name === name)
          );
        },
      },
    });
}
