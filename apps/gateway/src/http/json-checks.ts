/** A parsed JSON object (not an array, not null). */
export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string. */
export function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** Whether a forced tool choice names one of the tools the request offers. */
export function offersTool(tools: unknown, name: string): boolean {
  return Array.isArray(tools) && tools.some((tool) => isObject(tool) && tool.name === name);
}
