type Schema = Record<string, unknown>;

/**
 * A deterministic value that satisfies a (simple) JSON schema: the first enum value, strings
 * filled with `text`, numbers 42 clamped to the bounds, one array item, every object property.
 * Enough for tool arguments and json_schema answers; `$ref` is not resolved (yields null).
 */
export function sampleFromSchema(schema: unknown, text: string, depth = 0): unknown {
  if (!isSchema(schema) || depth > 8) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      return sampleFromSchema(options[0], text, depth + 1);
    }
  }
  switch (typeOf(schema)) {
    case 'object':
      return sampleObject(schema, text, depth);
    case 'array':
      return [sampleFromSchema(schema.items, text, depth + 1)];
    case 'string':
      return text;
    case 'integer':
      return clamp(schema, 42);
    case 'number':
      return clamp(schema, 42);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

function sampleObject(schema: Schema, text: string, depth: number): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const value: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    value[name] = sampleFromSchema(property, text, depth + 1);
  }
  return value;
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') ?? 'null';
  if (isSchema(schema.properties)) return 'object';
  return undefined;
}

function clamp(schema: Schema, value: number): number {
  let result = value;
  if (typeof schema.minimum === 'number') result = Math.max(result, schema.minimum);
  if (typeof schema.maximum === 'number') result = Math.min(result, schema.maximum);
  return result;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
