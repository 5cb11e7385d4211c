import { schemaAccepts } from '../http/schema-accepts.js';
import { MAX_INPUT_ITEMS, MAX_PARTS, MAX_TOOLS } from './responses-input-checks.js';

/*
 * The common Responses bodies as a JSON schema, stricter than ResponsesRequestDto and its checks:
 * what it passes, the DTO passes too (test/unit/gateway/responses-schema.spec.ts compares them
 * over the fuzz corpus); what it refuses (images and files, nulls for absent fields, a
 * tool_choice naming a function, stored state, odd shapes) is left to the DTO, which words the
 * error.
 */

const text = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const boolean = { type: 'boolean' } as const;

const textPart = {
  anyOf: [
    {
      type: 'object',
      required: ['type', 'text'],
      properties: { type: { enum: ['input_text', 'output_text'] }, text },
    },
    {
      type: 'object',
      required: ['type', 'refusal'],
      properties: { type: { const: 'refusal' }, refusal: text },
    },
  ],
} as const;

const inputItem = {
  anyOf: [
    {
      type: 'object',
      required: ['role', 'content'],
      properties: {
        type: { const: 'message' },
        role: { enum: ['user', 'assistant', 'system', 'developer'] },
        content: {
          anyOf: [text, { type: 'array', minItems: 1, maxItems: MAX_PARTS, items: textPart }],
        },
      },
    },
    {
      type: 'object',
      required: ['type', 'call_id', 'name', 'arguments'],
      properties: {
        type: { const: 'function_call' },
        call_id: nonEmpty,
        name: nonEmpty,
        arguments: text,
      },
    },
    {
      type: 'object',
      required: ['type', 'call_id', 'output'],
      properties: {
        type: { const: 'function_call_output' },
        call_id: nonEmpty,
        output: {
          anyOf: [
            text,
            {
              type: 'array',
              maxItems: MAX_PARTS,
              items: { type: 'object', required: ['text'], properties: { text } },
            },
          ],
        },
      },
    },
  ],
} as const;

const tool = {
  type: 'object',
  required: ['type', 'name'],
  properties: {
    type: { const: 'function' },
    name: nonEmpty,
    description: text,
    parameters: { type: 'object' },
    strict: boolean,
  },
} as const;

const format = {
  anyOf: [
    {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['text', 'json_object'] } },
    },
    {
      type: 'object',
      required: ['type', 'name', 'schema'],
      properties: {
        type: { const: 'json_schema' },
        name: nonEmpty,
        schema: { type: 'object' },
        strict: boolean,
      },
    },
  ],
} as const;

const positiveInteger = { type: 'integer', minimum: 1, maximum: 1e9 } as const;

export const responsesSchema = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    // both count code points (class-validator also drops variation selectors: it allows more)
    model: { type: 'string', minLength: 1, maxLength: 256 },
    input: {
      anyOf: [text, { type: 'array', minItems: 1, maxItems: MAX_INPUT_ITEMS, items: inputItem }],
    },
    instructions: text,
    tools: { type: 'array', maxItems: MAX_TOOLS, items: tool },
    tool_choice: { enum: ['auto', 'required', 'none'] },
    text: { type: 'object', properties: { format } },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    // bounded: JSON's 1e999 parses to Infinity, which the schema's integer type lets through
    max_output_tokens: positiveInteger,
    stream: boolean,
    store: boolean,
    parallel_tool_calls: boolean,
    user: text,
    // the DTO bounds UTF-16 units (512), JSON Schema code points: 256 of them fit either way
    metadata: {
      type: 'object',
      maxProperties: 16,
      additionalProperties: { type: 'string', maxLength: 256 },
    },
    previous_response_id: { type: 'null' },
    conversation: { type: 'null' },
    background: { const: false },
    models: { type: 'array', minItems: 1, maxItems: 10, items: text },
  },
} as const;

/** The quick check of a Responses body (see JsonBodyValidationPipe). */
export const acceptsResponses = schemaAccepts(responsesSchema);
