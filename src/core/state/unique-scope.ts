let next = 0;

/**
 * A key scope no other strategy instance in this process uses, so two groups sharing a store
 * never share state by accident. Groups that should share state across replicas get a stable
 * scope from the Nest module (`bindRouteState`) or their `scope` option.
 */
export function uniqueScope(kind: string): string {
  next += 1;
  return `${kind}#${next}`;
}
