import { schemaAccepts } from '../http/schema-accepts.js';
import { MAX_BLOCKS, MAX_MESSAGES, MAX_TOOLS } from './messages-checks.js';

/*
 * The common Messages bodies as a JSON schema, stricter than MessagesRequestDto and its checks:
 * what it passes, the DTO passes too (test/unit/gateway/messages-schema.spec.ts compares them
 * over the fuzz corpus); what it refuses (images and documents, nulls for absent fields, a
 * tool_choice naming a tool, odd shapes) is left to the DTO, which words the error.
 */

const text = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const strings = (maxItems: number, minItems = 0) =>
  ({ type: 'array', minItems, maxItems, items: text }) as const;

const textBlock = {
  type: 'object',
  required: ['type', 'text'],
  properties: { type: { const: 'text' }, text },
} as const;
const textBlocks = { type: 'array', maxItems: MAX_BLOCKS, items: textBlock } as const;

const toolUse = {
  type: 'object',
  required: ['type', 'id', 'name', 'input'],
  properties: {
    type: { const: 'tool_use' },
    id: nonEmpty,
    name: nonEmpty,
    input: { type: 'object' },
  },
} as const;

const toolResult = {
  type: 'object',
  required: ['type', 'tool_use_id'],
  properties: {
    type: { const: 'tool_result' },
    tool_use_id: nonEmpty,
    content: { anyOf: [text, textBlocks] },
  },
} as const;

const message = (role: 'user' | 'assistant', block: object) => ({
  type: 'object',
  required: ['role', 'content'],
  properties: {
    role: { const: role },
    content: {
      anyOf: [text, { type: 'array', minItems: 1, maxItems: MAX_BLOCKS, items: block }],
    },
  },
});

const tool = {
  type: 'object',
  required: ['name', 'input_schema'],
  properties: {
    type: { const: 'custom' },
    name: nonEmpty,
    description: text,
    input_schema: { type: 'object' },
  },
} as const;

const unitInterval = { type: 'number', minimum: 0, maximum: 1 } as const;

export const messagesSchema = {
  type: 'object',
  required: ['model', 'max_tokens', 'messages'],
  properties: {
    // both count code points (class-validator also drops variation selectors: it allows more)
    model: { type: 'string', minLength: 1, maxLength: 256 },
    // bounded: JSON's 1e999 parses to Infinity, which the schema's integer type lets through
    max_tokens: { type: 'integer', minimum: 1, maximum: 1e9 },
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_MESSAGES,
      items: {
        anyOf: [
          message('user', { anyOf: [textBlock, toolResult] }),
          message('assistant', { anyOf: [textBlock, toolUse] }),
        ],
      },
    },
    system: { anyOf: [text, textBlocks] },
    stop_sequences: strings(16),
    temperature: unitInterval,
    top_p: unitInterval,
    stream: { type: 'boolean' },
    tools: { type: 'array', maxItems: MAX_TOOLS, items: tool },
    tool_choice: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['auto', 'any', 'none'] } },
    },
    models: strings(10, 1),
  },
} as const;

/** The quick check of a Messages body (see JsonBodyValidationPipe). */
export const acceptsMessages = schemaAccepts(messagesSchema);
