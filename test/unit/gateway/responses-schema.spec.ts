import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { JsonBodyValidationPipe } from '../../../src/nest/dto/json-body-validation.pipe.js';
import { ResponsesRequestDto } from '../../../apps/gateway/src/responses/responses-request.dto.js';
import { acceptsResponses } from '../../../apps/gateway/src/responses/responses-schema.js';
import { expectSameAnswers, outcome, surfaceBodies } from './schema-equivalence.js';

const byDto = new JsonBodyValidationPipe(ResponsesRequestDto);
const quick = new JsonBodyValidationPipe(ResponsesRequestDto, {}, acceptsResponses);

const user = { role: 'user', content: 'What is the capital of France?' };

/** Well-formed bodies of every shape the schema covers: each must pass the quick check. */
const VALID: object[] = [
  { model: 'auto', input: 'What is the capital of France?' },
  {
    model: 'up/m',
    input: [
      { type: 'message', role: 'developer', content: 'Be brief.' },
      user,
      { role: 'assistant', content: [{ type: 'output_text', text: 'Paris.' }] },
      { role: 'user', content: [{ type: 'input_text', text: 'And Spain?' }] },
      { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
    ],
    instructions: 'Answer in one word.',
    temperature: 1.5,
    top_p: 1,
    max_output_tokens: 64,
    stream: true,
    store: false,
    parallel_tool_calls: true,
    user: 'u-1',
    metadata: { team: 'search' },
    previous_response_id: null,
    background: false,
    models: ['a', 'b'],
    text: { format: { type: 'json_schema', name: 'answer', schema: {}, strict: true } },
    include: ['reasoning.encrypted_content'],
  },
  {
    model: 'auto',
    input: [
      user,
      { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'Paris' },
      { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'P' }] },
    ],
    tools: [{ type: 'function', name: 'lookup', description: 'd', parameters: {}, strict: false }],
    tool_choice: 'required',
    text: { format: { type: 'text' } },
  },
];

describe('Responses quick check (JSON schema before the DTO)', () => {
  it('passes the common well-formed bodies without the DTO', () => {
    for (const body of VALID) expect(acceptsResponses(body)).toBe(true);
  });

  it('passes nothing the DTO refuses: over the fuzz corpus, the answers are the same', async () => {
    await expectSameAnswers(surfaceBodies('/v1/responses'), VALID, acceptsResponses, quick, byDto);
  });

  it('keeps to the bounds of the DTO where JSON Schema counts otherwise (Infinity, UTF-16)', async () => {
    // 1e999 parses to Infinity: an integer to JSON Schema, not to class-validator's IsInt
    const raw = '{"model":"auto","input":"hi","max_output_tokens":1e999}';
    expect(acceptsResponses(JSON.parse(raw) as object)).toBe(false);
    expect(await outcome(quick, raw)).toEqual(await outcome(byDto, raw));
    // 300 astral characters: 300 code points, 600 UTF-16 units, over the DTO's 512
    const long = { model: 'auto', input: 'hi', metadata: { note: '🙂'.repeat(300) } };
    expect(acceptsResponses(long)).toBe(false);
    expect(await outcome(quick, JSON.stringify(long))).toMatchObject({ refused: {} });
  });
});
