import { BadRequestException, type PipeTransform } from '@nestjs/common';
import {
  assertBoundedJsonObject,
  type JsonBodyBounds,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_REPORTED_PROBLEMS,
} from 'nest-model-router';
import type { z } from 'zod';
import { bodyProblems, describeProblem, wording } from './wire-problems.js';

/**
 * Checks a wire body against its surface's zod schema, the body's one description (its type,
 * its check, its error wording), and hands the controller the parsed body, typed. Every surface
 * answers a bad body the same way: a 400 whose message lists the problems by path and whose
 * `param` is the first path; each surface's exception filter gives it that surface's error shape.
 *
 * Before the schema, the body's size in values, array lengths and depth is bounded (the
 * library's `bodyBoundsProblem`, which also strips prototype-polluting keys): a body of a million
 * tiny values, or nested thousands deep in a field the schema does not look into (a tool's JSON
 * schema), costs a walk that stops at the first breach.
 */
export class WireBodyPipe<Schema extends z.ZodType> implements PipeTransform<
  unknown,
  z.output<Schema>
> {
  constructor(
    private readonly schema: Schema,
    private readonly bounds: JsonBodyBounds = {},
  ) {}

  transform(value: unknown): z.output<Schema> {
    assertBoundedJsonObject(value, this.bounds);
    // parse options cost zod its fast path (~2.5x the CPU of a typical body): a valid body is
    // parsed without them, and only a refused one again, with the gateway's wording
    const parsed = this.schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const worded = this.schema.safeParse(value, { error: wording });
    throw invalidBody(worded.success ? parsed.error.issues : worded.error.issues);
  }
}

function invalidBody(issues: readonly z.core.$ZodIssue[]): BadRequestException {
  const problems = bodyProblems(issues);
  const listed = problems.slice(0, MAX_REPORTED_PROBLEMS).map(describeProblem);
  const more = problems.length - listed.length;
  let message = `Invalid request body: ${listed.join('; ')}`;
  if (message.length > MAX_ERROR_MESSAGE_LENGTH) {
    message = `${message.slice(0, MAX_ERROR_MESSAGE_LENGTH)}…`;
  }
  if (more > 0) message += ` (and ${more} more problems)`;
  const param = problems[0]?.path || null;
  return new BadRequestException({
    message,
    param: param !== null && param.length > 200 ? `${param.slice(0, 200)}…` : param,
  });
}
