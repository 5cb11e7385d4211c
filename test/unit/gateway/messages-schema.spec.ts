import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { JsonBodyValidationPipe } from '../../../src/nest/dto/json-body-validation.pipe.js';
import { MessagesRequestDto } from '../../../apps/gateway/src/anthropic/messages-request.dto.js';
import { acceptsMessages } from '../../../apps/gateway/src/anthropic/messages-schema.js';
import { expectSameAnswers, outcome, surfaceBodies } from './schema-equivalence.js';

const byDto = new JsonBodyValidationPipe(MessagesRequestDto);
const quick = new JsonBodyValidationPipe(MessagesRequestDto, {}, acceptsMessages);

const user = { role: 'user', content: 'What is the capital of France?' };

/** Well-formed bodies of every shape the schema covers: each must pass the quick check. */
const VALID: object[] = [
  { model: 'auto', max_tokens: 64, messages: [user] },
  {
    model: 'up/m',
    max_tokens: 1024,
    messages: [user, { role: 'assistant', content: [{ type: 'text', text: 'Paris.' }] }, user],
    system: [{ type: 'text', text: 'Be brief.' }],
    stop_sequences: ['\n\nHuman:'],
    temperature: 0.2,
    top_p: 1,
    stream: true,
    models: ['a', 'b'],
    metadata: { user_id: 'u-1' },
  },
  {
    model: 'auto',
    max_tokens: 64,
    system: 'Use the tools.',
    messages: [
      user,
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking it up.' },
          { type: 'tool_use', id: 't1', name: 'lookup', input: { q: 'France' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'Paris' },
          { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'Paris' }] },
        ],
      },
    ],
    tools: [
      { name: 'lookup', description: 'd', input_schema: { type: 'object' } },
      { type: 'custom', name: 'other', input_schema: {} },
    ],
    tool_choice: { type: 'any' },
  },
];

describe('Messages quick check (JSON schema before the DTO)', () => {
  it('passes the common well-formed bodies without the DTO', () => {
    for (const body of VALID) expect(acceptsMessages(body)).toBe(true);
  });

  it('passes nothing the DTO refuses: over the fuzz corpus, the answers are the same', async () => {
    await expectSameAnswers(surfaceBodies('/v1/messages'), VALID, acceptsMessages, quick, byDto);
  });

  it('keeps to the bounds of the DTO where JSON Schema counts otherwise (Infinity, code points)', async () => {
    // 1e999 parses to Infinity: an integer to JSON Schema, not to class-validator's IsInt
    const raw = '{"model":"auto","max_tokens":1e999,"messages":[{"role":"user","content":"hi"}]}';
    expect(acceptsMessages(JSON.parse(raw) as object)).toBe(false);
    expect(await outcome(quick, raw)).toEqual(await outcome(byDto, raw));
    // 257 astral characters are 514 UTF-16 units: both count 257, over the limit of 256
    const long = { model: '🙂'.repeat(257), max_tokens: 1, messages: [user] };
    expect(acceptsMessages(long)).toBe(false);
    expect(await outcome(quick, JSON.stringify(long))).toMatchObject({ refused: {} });
    expect(acceptsMessages({ ...long, model: '🙂'.repeat(256) })).toBe(true);
  });
});
