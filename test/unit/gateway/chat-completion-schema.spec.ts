import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { JsonBodyValidationPipe } from '../../../src/nest/dto/json-body-validation.pipe.js';
import { ChatCompletionRequestDto } from '../../../apps/gateway/src/openai/chat-completion-request.dto.js';
import { acceptsChatCompletion } from '../../../apps/gateway/src/openai/chat-completion-schema.js';
import { hostileBodies } from '../../../bench/lib/hostile-bodies.js';
import { expectSameAnswers, outcome } from './schema-equivalence.js';

const byDto = new JsonBodyValidationPipe(ChatCompletionRequestDto);
const quick = new JsonBodyValidationPipe(ChatCompletionRequestDto, {}, acceptsChatCompletion);

const user = { role: 'user', content: 'What is the capital of France?' };

/** Well-formed bodies of every shape the schema covers: each must pass the quick check. */
const VALID: object[] = [
  { model: 'auto', messages: [user] },
  { model: 'up/m', messages: [user], stream: true, stream_options: { include_usage: true } },
  {
    model: 'auto',
    messages: [{ role: 'system', content: [{ type: 'text', text: 'Be brief.' }] }, user],
    temperature: 0.2,
    top_p: 1,
    max_tokens: 64,
    max_completion_tokens: 64,
    stop: ['\n', 'END'],
    n: 1,
    user: 'u-1',
    models: ['a', 'b'],
  },
  {
    model: 'auto',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
          { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
          { type: 'file', file: { file_id: 'f-1' } },
        ],
      },
    ],
    stop: 'END',
  },
  {
    model: 'auto',
    messages: [
      user,
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '42', name: 'f' },
      { role: 'assistant', content: 'It is 42.' },
      { role: 'developer', content: 'Stay on topic.' },
    ],
    tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: {} } }],
    tool_choice: 'auto',
    response_format: { type: 'json_schema', json_schema: { name: 'n', schema: {}, strict: true } },
  },
  { model: 'auto', messages: [user], response_format: { type: 'json_object' }, vendor_extra: 1 },
];

describe('chat completions quick check (JSON schema before the DTO)', () => {
  it('passes the common well-formed bodies without the DTO', () => {
    for (const body of VALID) expect(acceptsChatCompletion(body)).toBe(true);
  });

  it('passes nothing the DTO refuses: over the fuzz corpus, the answers are the same', async () => {
    const fuzzed = hostileBodies(3_000)
      .filter((body) => body.path === '/v1/chat/completions')
      .map((body) => body.raw);
    await expectSameAnswers(fuzzed, VALID, acceptsChatCompletion, quick, byDto);
  });

  it('leaves what it refuses to the DTO, which may still pass it (nulls for absent fields)', async () => {
    const body = { model: 'auto', messages: [user], stream: null, temperature: null };
    expect(acceptsChatCompletion(body)).toBe(false);
    expect(await outcome(quick, JSON.stringify(body))).toEqual({ passed: body });
  });
});
