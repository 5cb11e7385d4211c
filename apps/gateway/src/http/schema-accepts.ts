import { Ajv, type SchemaObject } from 'ajv';

// one compiler for every surface's schema: each compiled check is a plain function
const ajv = new Ajv({ allErrors: false, strict: true });

/**
 * A JSON schema compiled into the quick check of JsonBodyValidationPipe: true only for bodies the
 * surface's DTO accepts (the schema may refuse more: those go to the DTO for its error message).
 */
export function schemaAccepts(schema: SchemaObject): (body: object) => boolean {
  const validate = ajv.compile(schema);
  return (body) => validate(body);
}
