/**
 * Deeper bodies are refused: class-transformer and class-validator recurse once per level and
 * overflow the stack on a few thousand nested arrays. Real bodies, tool schemas included, stay
 * far below this.
 */
export const MAX_JSON_DEPTH = 64;

interface Nested {
  value: object;
  depth: number;
  key?: string;
  parent?: Nested;
}

/** The path (`messages.0.0`) of the first value nested deeper than `limit`, found without recursion. */
export function pathDeeperThan(root: unknown, limit = MAX_JSON_DEPTH): string | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
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

/** What a client is told about a body nested too deep at `path`. */
export function tooDeepMessage(path: string): string {
  return (
    `Invalid request body: ${path} is nested more than ${MAX_JSON_DEPTH} levels deep; ` +
    'flatten the JSON (tool parameter schemas included)'
  );
}

function pathOf(node: Nested): string {
  const keys: string[] = [];
  for (let at: Nested | undefined = node; at?.key !== undefined; at = at.parent) {
    keys.unshift(at.key);
  }
  const path = keys.join('.');
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
