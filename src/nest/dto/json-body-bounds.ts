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
  path: string;
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
  const pending: Pending[] = [{ value: root, depth: 0, path: '' }];
  let values = 1;
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.depth > maxDepth) {
      return { path: node.path, message: tooDeepMessage(node.path) };
    }
    if (Array.isArray(node.value) && node.value.length > maxArrayLength) {
      const path = node.path || '(body)';
      return {
        path,
        message:
          `Invalid request body: ${path} has ${node.value.length} elements; at most ` +
          `${maxArrayLength} are accepted. Send fewer (split the conversation or the list).`,
      };
    }
    if (strip && !Array.isArray(node.value)) stripProtoKeys(node.value);
    // for…in visits keys without building an entries array (a body is plain JSON: no prototype keys)
    for (const key in node.value) {
      values += 1;
      if (values > maxValues) {
        return {
          path: node.path || '(body)',
          message:
            `Invalid request body: more than ${maxValues} JSON values; ` +
            'send a smaller body (fewer messages, parts or tools).',
        };
      }
      const child = (node.value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) {
        const path = node.path ? `${node.path}.${key}` : key;
        pending.push({ value: child, depth: node.depth + 1, path: clip(path) });
      }
    }
  }
  return undefined;
}

function stripProtoKeys(value: object): void {
  for (const key of ['__proto__', 'prototype', 'constructor']) {
    if (Object.hasOwn(value, key)) Reflect.deleteProperty(value, key);
  }
}

function clip(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
