import {
  BadRequestException,
  type PipeTransform,
  type Type,
  ValidationPipe,
  type ValidationError,
} from '@nestjs/common';

/**
 * Deeper bodies are refused before validation: class-transformer recurses once per level and
 * would overflow the stack (a 500) on a few thousand nested arrays. Real bodies, tool schemas
 * included, stay far below this.
 */
export const MAX_JSON_DEPTH = 64;

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
    const deep = pathDeeperThan(value, MAX_JSON_DEPTH);
    if (deep !== undefined) {
      throw new BadRequestException({
        message:
          `Invalid request body: ${deep} is nested more than ${MAX_JSON_DEPTH} levels deep; ` +
          'flatten the JSON (tool parameter schemas included)',
        param: deep,
      });
    }
    return this.pipe.transform(value, { type: 'body', metatype: this.dto });
  }
}

interface Nested {
  value: object;
  depth: number;
  key?: string;
  parent?: Nested;
}

/** The path of the first value nested deeper than `limit`, found without recursion. */
function pathDeeperThan(root: object, limit: number): string | undefined {
  const pending: Nested[] = [{ value: root, depth: 0 }];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.depth > limit) return pathOf(node);
    for (const [key, child] of Object.entries(node.value)) {
      if (typeof child === 'object' && child !== null) {
        pending.push({ value: child as object, depth: node.depth + 1, key, parent: node });
      }
    }
  }
  return undefined;
}

function pathOf(node: Nested): string {
  const keys: string[] = [];
  for (let at: Nested | undefined = node; at?.key !== undefined; at = at.parent) {
    keys.unshift(at.key);
  }
  const path = keys.join('.');
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
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
