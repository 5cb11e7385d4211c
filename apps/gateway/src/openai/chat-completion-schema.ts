import { schemaAccepts } from '../http/schema-accepts.js';
import { MAX_MESSAGES } from './chat-completion-request.dto.js';

/*
 * The common chat completions bodies as a JSON schema, stricter than ChatCompletionRequestDto:
 * what it passes, the DTO passes too (test/unit/gateway/chat-completion-schema.spec.ts compares
 * them over the fuzz corpus); what it refuses (nulls for absent fields, a tool_choice naming a
 * tool, odd shapes) is left to the DTO, which words the error.
 */

const text = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;

const textPart = {
  type: 'object',
  required: ['type', 'text'],
  properties: { type: { const: 'text' }, text },
} as const;

const contentPart = {
  anyOf: [
    textPart,
    {
      type: 'object',
      required: ['type', 'image_url'],
      properties: {
        type: { const: 'image_url' },
        image_url: { type: 'object', required: ['url'], properties: { url: nonEmpty } },
      },
    },
    {
      type: 'object',
      required: ['type', 'input_audio'],
      properties: {
        type: { const: 'input_audio' },
        input_audio: {
          type: 'object',
          required: ['data', 'format'],
          properties: { data: text, format: text },
        },
      },
    },
    {
      type: 'object',
      required: ['type', 'file'],
      properties: { type: { const: 'file' }, file: { type: 'object' } },
    },
  ],
} as const;

const mediaContent = {
  anyOf: [text, { type: 'array', minItems: 1, items: contentPart }],
} as const;
const textContent = { anyOf: [text, { type: 'array', minItems: 1, items: textPart }] } as const;

const toolCall = {
  type: 'object',
  required: ['id', 'type', 'function'],
  properties: {
    id: nonEmpty,
    type: { const: 'function' },
    function: {
      type: 'object',
      required: ['name', 'arguments'],
      properties: { name: nonEmpty, arguments: text },
    },
  },
} as const;

const message = (role: string | string[], fields: object, required: string[]) => ({
  type: 'object',
  required: ['role', ...required],
  properties: {
    role: Array.isArray(role) ? { enum: role } : { const: role },
    name: text,
    ...fields,
  },
});

const tool = {
  type: 'object',
  required: ['type', 'function'],
  properties: {
    type: { const: 'function' },
    function: {
      type: 'object',
      required: ['name'],
      properties: { name: nonEmpty, description: text, parameters: { type: 'object' } },
    },
  },
} as const;

const responseFormat = {
  anyOf: [
    {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['text', 'json_object'] } },
    },
    {
      type: 'object',
      required: ['type', 'json_schema'],
      properties: {
        type: { const: 'json_schema' },
        json_schema: {
          type: 'object',
          required: ['name'],
          properties: { name: nonEmpty, schema: { type: 'object' }, strict: { type: 'boolean' } },
        },
      },
    },
  ],
} as const;

const positiveInteger = { type: 'integer', minimum: 1 } as const;

export const chatCompletionSchema = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: nonEmpty,
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_MESSAGES,
      items: {
        anyOf: [
          message('user', { content: mediaContent }, ['content']),
          message(['system', 'developer'], { content: textContent }, ['content']),
          message(
            'assistant',
            {
              content: { anyOf: [textContent, { type: 'null' }] },
              tool_calls: { anyOf: [{ type: 'array', items: toolCall }, { type: 'null' }] },
            },
            [],
          ),
          message('tool', { content: textContent, tool_call_id: nonEmpty }, [
            'content',
            'tool_call_id',
          ]),
        ],
      },
    },
    stream: { type: 'boolean' },
    n: { const: 1 },
    stream_options: { type: 'object' },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    max_tokens: positiveInteger,
    max_completion_tokens: positiveInteger,
    stop: { anyOf: [text, { type: 'array', maxItems: 4, items: text }] },
    tools: { type: 'array', maxItems: MAX_MESSAGES, items: tool },
    tool_choice: { enum: ['auto', 'required', 'none'] },
    response_format: responseFormat,
    models: { type: 'array', maxItems: 10, items: text },
    user: text,
  },
} as const;

/** The quick check of a chat completions body (see JsonBodyValidationPipe). */
export const acceptsChatCompletion = schemaAccepts(chatCompletionSchema);
