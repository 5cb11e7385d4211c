import { registerDecorator, type ValidationOptions } from 'class-validator';
import { parametersProblem } from '../../core/chat/parameter-bounds.js';

/**
 * A forwarded sampling parameter (`seed`, `logitBias`, `topLogprobs`…), held to the library's
 * own bounds: one rule set, so the DTO and a code caller's request are refused alike, with the
 * same message naming the field.
 */
export function IsBoundedParameter(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isBoundedParameter',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        // the field's own name: Nest's ValidationPipe puts the parent's path (`parameters.`) before it
        message: (args) =>
          (parametersProblem({ [args.property]: args.value }) ?? args.property).replace(
            /^parameters\./,
            '',
          ),
        ...options,
      },
      validator: {
        validate: (value: unknown, args) =>
          parametersProblem({ [args!.property]: value }) === undefined,
      },
    });
}
