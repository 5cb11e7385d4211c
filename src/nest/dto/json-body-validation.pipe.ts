import {
  BadRequestException,
  type PipeTransform,
  type Type,
  ValidationPipe,
  type ValidationError,
} from '@nestjs/common';
import { pathDeeperThan, tooDeepMessage } from './json-depth.js';

/**
 * Validates a JSON body against a class-validator DTO and reports every problem with the path of
 * its field (`messages.0.role: ...`); the first path becomes the OpenAI error's `param`. The body
 * itself is passed on unchanged (fields the DTO does not know are tolerated, as OpenAI's SDKs
 * send some).
 */
export class JsonBodyValidationPipe implements PipeTransform {
  private readonly pipe: ValidationPipe;

  constructor(private readonly dto: Type<object>) {
    this.pipe = new ValidationPipe({
      transform: false,
      forbidUnknownValues: false,
      exceptionFactory: (errors) => invalidBody(flatten(errors, '')),
    });
  }

  async transform(value: unknown): Promise<unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new BadRequestException({
        message: 'The request body must be a JSON object (Content-Type: application/json)',
        param: null,
      });
    }
    // deeper bodies would overflow the stack in class-transformer (a 500)
    const deep = pathDeeperThan(value);
    if (deep !== undefined) {
      throw new BadRequestException({ message: tooDeepMessage(deep), param: deep });
    }
    return this.pipe.transform(value, { type: 'body', metatype: this.dto });
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
  return new BadRequestException({
    message: `Invalid request body: ${problems.map((p) => p.message).join('; ')}`,
    param: problems[0]?.path ?? null,
  });
}
