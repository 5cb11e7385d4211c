import type { StickyAssignment } from '../core/state/route-state-store.js';

export function encodeSticky(assignment: StickyAssignment): string {
  return JSON.stringify(
    assignment.route === undefined
      ? { model: assignment.model }
      : { route: assignment.route, model: assignment.model },
  );
}

/** `undefined` for anything that is not an assignment this library wrote. */
export function decodeSticky(json: unknown): StickyAssignment | undefined {
  if (typeof json !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { route, model } = value as Record<string, unknown>;
  if (typeof model !== 'string') return undefined;
  if (route !== undefined && typeof route !== 'string') return undefined;
  return Object.freeze(route === undefined ? { model } : { route, model });
}
