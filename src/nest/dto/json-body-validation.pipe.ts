import { BadRequestException, type PipeTransform, type Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { assertBoundedJsonObject, type JsonBodyBounds } from './json-body-bounds.js';

/** Problems listed in one answer: enough to fix a body, bounded whatever the body holds. */
export const MAX_REPORTED_PROBLEMS = 10;
/** Longest error message, so an error answer stays small whatever the body held. */
export const MAX_ERROR_MESSAGE_LENGTH = 4000;

/**
 * Validates a JSON body against a class-validator DTO and reports every problem with the path of
 * its field (`messages.0.role: ...`); the first path becomes the OpenAI error's `param`. The body
 * itself is passed on unchanged (fields the DTO does not know are tolerated, as OpenAI's SDKs
 * send some). Before any of that, the body's size in values, array lengths and depth is checked
 * (`JsonBodyBounds`), so no body makes the validator's work or its answer large.
 *
 * Nest's ValidationPipe is not used: made for any value (primitives, binary data, sparse arrays
 * from multipart forms), it walks the body three more times per request, which a JSON object
 * never needs. Here the bounds walk also strips the prototype-polluting keys (as Nest's
 * `stripProtoKeys` does), then class-transformer runs once and class-validator once.
 */
export class JsonBodyValidationPipe implements PipeTransform {
  constructor(
    private readonly dto: Type<object>,
    private readonly bounds: JsonBodyBounds = {},
  ) {}

  async transform(value: unknown): Promise<unknown> {
    assertBoundedJsonObject(value, this.bounds);
    const errors = await validate(plainToInstance(this.dto, value), {
      forbidUnknownValues: false,
      // the error's target and value would copy the body into every error
      validationError: { target: false, value: false },
    });
    if (errors.length > 0) throw invalidBody(flatten(errors, ''));
    return value;
  }
}

interface FieldProblem {
  path: string;
  message: string;
}

function flatten(errors: ValidationError[], parent: string): FieldProblem[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    return [
      ...Object.values(error.constraints ?? {}).map((message) => ({
        path,
        // class-validator starts messages with the bare property name; give the full path
        message: message.startsWith(`${error.property} `)
          ? `${path}${message.slice(error.property.length)}`
          : `${path}: ${message}`,
      })),
      ...flatten(error.children ?? [], path),
    ];
  });
}

function invalidBody(problems: FieldProblem[]): BadRequestException {
  const listed = problems.slice(0, MAX_REPORTED_PROBLEMS).map((p) => p.message);
  const more = problems.length - listed.length;
  let message = `Invalid request body: ${listed.join('; ')}`;
  if (message.length > MAX_ERROR_MESSAGE_LENGTH) {
    message = `${message.slice(0, MAX_ERROR_MESSAGE_LENGTH)}…`;
  }
  if (more > 0) message += ` (and ${more} more problems)`;
  return new BadRequestException({ message, param: clip(problems[0]?.path ?? null) });
}

function clip(path: string | null): string | null {
  return path !== null && path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
