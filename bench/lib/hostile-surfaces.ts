/**
 * The fuzzed bodies of the gateway's other surfaces: per endpoint a valid body and the field
 * paths worth breaking (for hostileBodiesFor), shared by the e2e fuzz test and the unit tests of
 * the surfaces' body schemas.
 */
export const FUZZED_SURFACES: [string, () => Record<string, never>, string[]][] = [
  [
    '/v1/responses',
    () =>
      ({
        model: 'auto',
        input: [{ role: 'user', content: 'What is the capital of France?' }],
      }) as never,
    [
      'model',
      'input',
      'input.*',
      'input.*.type',
      'input.*.role',
      'input.*.content',
      'input.*.content.*',
      'input.*.call_id',
      'input.*.output',
      'instructions',
      'tools',
      'tools.*',
      'tools.*.parameters',
      'tool_choice',
      'text',
      'text.format',
      'text.format.schema',
      'stream',
      'store',
      'metadata',
      'previous_response_id',
      'max_output_tokens',
      'temperature',
      'models',
    ],
  ],
  [
    '/v1/messages',
    () =>
      ({
        model: 'auto',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hello there' }],
      }) as never,
    [
      'model',
      'max_tokens',
      'messages',
      'messages.*',
      'messages.*.role',
      'messages.*.content',
      'messages.*.content.*',
      'messages.*.content.*.source',
      'system',
      'tools',
      'tools.*',
      'tools.*.input_schema',
      'tool_choice',
      'stop_sequences',
      'stream',
      'temperature',
      'models',
    ],
  ],
  [
    '/v1/embeddings',
    () => ({ model: 'demo-embedding', input: ['hello world'] }) as never,
    ['model', 'input', 'input.*', 'encoding_format', 'dimensions', 'models', 'user'],
  ],
];
