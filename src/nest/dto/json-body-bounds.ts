import { BadRequestException } from '@nestjs/common';
import { MAX_JSON_DEPTH, tooDeepMessage } from './json-depth.js';

/**
 * What one JSON body may ask of the validator. class-transformer and class-validator visit every
 * value and write one message per problem: 3 million empty messages (9 MB, under the body limit)
 * took 100 s and ended out of memory. These bounds are checked first, in one walk that stops at
 * the first breach, so the work per request stays proportional to the bounds, not to the body.
 */
export interface JsonBodyBounds {
  /** Longest array anywhere in the body (messages, parts, tools, tool calls…). Default 4096. */
  maxArrayLength?: number;
  /** Most JSON values (objects, arrays and primitives) in the body. Default 100 000. */
  maxValues?: number;
  /** Deepest nesting. Default 64 (`MAX_JSON_DEPTH`). */
  maxDepth?: number;
}

export const DEFAULT_MAX_ARRAY_LENGTH = 4096;
export const DEFAULT_MAX_VALUES = 100_000;

export interface BoundsProblem {
  path: string;
  message: string;
}

interface Pending {
  value: object;
  depth: number;
  /** Where the value is, for a breach's message only: the path string is built then. */
  parent: Pending | undefined;
  key: string | number;
}

/**
 * The first bound the body breaks, or undefined; never recurses and never copies an array. With
 * `stripProtoKeys`, the keys that would pollute a prototype once class-transformer copies the
 * body (`__proto__`, `prototype`, an own `constructor`) are deleted on the way, as Nest's
 * ValidationPipe does, so that one walk serves both.
 */
export function bodyBoundsProblem(
  root: unknown,
  bounds: JsonBodyBounds = {},
  { stripProtoKeys: strip = false } = {},
): BoundsProblem | undefined {
  const maxArrayLength = bounds.maxArrayLength ?? DEFAULT_MAX_ARRAY_LENGTH;
  const maxValues = bounds.maxValues ?? DEFAULT_MAX_VALUES;
  const maxDepth = bounds.maxDepth ?? MAX_JSON_DEPTH;
  if (typeof root !== 'object' || root === null) return undefined;
  const pending: Pending[] = [{ value: root, depth: 0, parent: undefined, key: '' }];
  let values = 1;
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.depth > maxDepth) {
      const path = pathOf(node);
      return { path, message: tooDeepMessage(path) };
    }
    if (Array.isArray(node.value) && node.value.length > maxArrayLength) {
      const path = pathOf(node) || '(body)';
      return {
        path,
        message:
          `Invalid request body: ${path} has ${node.value.length} elements; at most ` +
          `${maxArrayLength} are accepted. Send fewer (split the conversation or the list).`,
      };
    }
    const isArray = Array.isArray(node.value);
    if (strip && !isArray) stripProtoKeys(node.value);
    const count = isArray ? (node.value as unknown[]).length : 0;
    values += count;
    if (values > maxValues) return tooManyValues(node, maxValues);
    if (isArray) {
      // an index loop: for…in would make a string of every index
      const items = node.value as unknown[];
      for (let index = 0; index < count; index++) {
        const child = items[index];
        if (typeof child === 'object' && child !== null) {
          pending.push({ value: child, depth: node.depth + 1, parent: node, key: index });
        }
      }
      continue;
    }
    // for…in visits keys without building an entries array (a body is plain JSON: no prototype keys)
    for (const key in node.value) {
      values += 1;
      if (values > maxValues) return tooManyValues(node, maxValues);
      const child = (node.value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) {
        pending.push({ value: child, depth: node.depth + 1, parent: node, key });
      }
    }
  }
  return undefined;
}

function tooManyValues(node: Pending, maxValues: number): BoundsProblem {
  return {
    path: pathOf(node) || '(body)',
    message:
      `Invalid request body: more than ${maxValues} JSON values; ` +
      'send a smaller body (fewer messages, parts or tools).',
  };
}

/** `messages.0.content`, built only for a breach (most bodies have none). */
function pathOf(node: Pending): string {
  const keys: (string | number)[] = [];
  for (let at: Pending | undefined = node; at?.parent !== undefined; at = at.parent) {
    keys.push(at.key);
  }
  return clip(keys.reverse().join('.'));
}

function stripProtoKeys(value: object): void {
  for (const key of ['__proto__', 'prototype', 'constructor']) {
    if (Object.hasOwn(value, key)) Reflect.deleteProperty(value, key);
  }
}

function clip(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/**
 * The first step of every body pipe: a JSON object within `bounds` (prototype-polluting keys
 * stripped), else a 400 naming the field. Refused before any schema or DTO visits every value:
 * deeper bodies overflow their stack (a 500), longer ones hold the event loop and the heap.
 */
export function assertBoundedJsonObject(
  value: unknown,
  bounds: JsonBodyBounds = {},
): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequestException({
      message: 'The request body must be a JSON object (Content-Type: application/json)',
      param: null,
    });
  }
  const problem = bodyBoundsProblem(value, bounds, { stripProtoKeys: true });
  if (problem !== undefined) {
    throw new BadRequestException({ message: problem.message, param: problem.path });
  }
}
