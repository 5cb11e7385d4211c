import { describe, expect, it } from '@jest/globals';
import { WireBodyPipe } from '../../../apps/gateway/src/http/wire-body.pipe.js';
import { processToolCallIds } from '../../../apps/gateway/src/openai/tool-call-ids.js';
import { responsesBody } from '../../../apps/gateway/src/responses/responses-body.js';
import { toChatRequest } from '../../../apps/gateway/src/responses/to-chat-request.js';
import { expectOnlyClientErrors, refusal, surfaceBodies, verdict } from './wire-body-fuzz.js';

const pipe = new WireBodyPipe(responsesBody);

const user = { role: 'user', content: 'What is the capital of France?' };

/** Well-formed bodies of every shape the surface takes. */
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
      {
        role: 'user',
        content: [
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
          { type: 'input_file', file_data: 'data:application/pdf;base64,AAAA' },
        ],
      },
      { type: 'reasoning', id: 'rs_1' },
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
    tool_choice: { type: 'function', name: 'lookup' },
    text: { format: { type: 'text' } },
  },
];

/** The 400 of a minimal body with `fields` changed. */
const refusalWith = (fields: object) => refusal(pipe, { model: 'auto', input: 'hi', ...fields });

describe('the Responses body, described once (responsesBody)', () => {
  it('passes the well-formed bodies', () => {
    for (const body of VALID) expect(verdict(pipe, body)).toHaveProperty('passed');
  });

  it('reports a missing field as missing, and only that', () => {
    expect(refusal(pipe, { model: 'auto' })).toEqual({
      message: 'Invalid request body: input is required',
      param: 'input',
    });
    expect(refusal(pipe, { model: 'auto', input: [{ role: 'user' }] }).message).toBe(
      'Invalid request body: input.0.content is required',
    );
  });

  it('refuses what needs stored state, and media outside a user message, by name', () => {
    expect(refusalWith({ previous_response_id: 'resp_1' }).message).toContain(
      'previous_response_id: this gateway stores no responses',
    );
    expect(
      refusalWith({ input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] }),
    ).toMatchObject({ param: 'input.0.content.0.file_id' });
    expect(
      refusalWith({
        input: [
          {
            role: 'assistant',
            content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }],
          },
        ],
      }).message,
    ).toContain('input.0.content.0: only a user message takes images');
    expect(refusalWith({ input: [{ type: 'computer_call' }] }).message).toContain(
      "input.0.type 'computer_call' is not supported here",
    );
    expect(refusalWith({ tool_choice: { type: 'function', name: 'x' } }).message).toContain(
      "tool_choice names the function 'x', which is not one of the tools",
    );
  });

  it.each([
    ['input_image', 'image_url', 'file:///etc/passwd', 'must be an http(s) URL'],
    [
      'input_image',
      'image_url',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'must be a data URL of an image',
    ],
    ['input_image', 'image_url', 'data:image/png;base64,%%%', 'with base64 data'],
    [
      'input_file',
      'file_data',
      'data:application/pdf;base64,not base64!',
      'must be a data:application/pdf;base64 URL',
    ],
  ])('refuses an %s whose %s is %s', (type, field, value, says) => {
    const answer = refusalWith({
      input: [{ role: 'user', content: [{ type, [field]: value }] }],
    });

    expect(answer.param).toBe(`input.0.content.0.${field}`);
    expect(answer.message).toContain(says);
  });

  it('keeps its bounds: Infinity is no integer, metadata values of 512 UTF-16 units', () => {
    const raw = '{"model":"auto","input":"hi","max_output_tokens":1e999}';
    expect(refusal(pipe, JSON.parse(raw)).param).toBe('max_output_tokens');
    const long = { model: 'auto', input: 'hi', metadata: { note: '🙂'.repeat(300) } };
    expect(refusal(pipe, long).param).toBe('metadata');
    expect(verdict(pipe, { ...long, metadata: { note: '🙂'.repeat(256) } })).toHaveProperty(
      'passed',
    );
  });

  it('answers every body of the fuzz corpus with a pass or a 400, never anything else', () => {
    const { passed, refused } = expectOnlyClientErrors(
      pipe,
      [...VALID.map((body) => JSON.stringify(body)), ...surfaceBodies('/v1/responses')],
      (body) => toChatRequest(body, processToolCallIds),
    );
    expect(passed).toBeGreaterThan(VALID.length);
    expect(refused).toBeGreaterThan(passed);
  });
});
