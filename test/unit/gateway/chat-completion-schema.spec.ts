import { describe, expect, it } from '@jest/globals';
import { WireBodyPipe } from '../../../apps/gateway/src/http/wire-body.pipe.js';
import { chatCompletionBody } from '../../../apps/gateway/src/openai/chat-completion-body.js';
import { toChatRequest } from '../../../apps/gateway/src/openai/to-chat-request.js';
import { hostileBodies } from '../../../bench/lib/hostile-bodies.js';
import { expectOnlyClientErrors, refusal, verdict } from './wire-body-fuzz.js';

const pipe = new WireBodyPipe(chatCompletionBody);

const user = { role: 'user', content: 'What is the capital of France?' };

/** Well-formed bodies of every shape the surface takes. */
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
    tool_choice: { type: 'function', function: { name: 'f' } },
    response_format: { type: 'json_schema', json_schema: { name: 'n', schema: {}, strict: true } },
  },
  { model: 'auto', messages: [user], response_format: { type: 'json_object' }, vendor_extra: 1 },
  // an optional field sent as null is absent, as OpenAI reads it
  { model: 'auto', messages: [user], stream: null, temperature: null, tools: null, n: null },
];

describe('the chat completions body, described once (chatCompletionBody)', () => {
  it('passes the well-formed bodies and hands on their fields, typed', () => {
    for (const body of VALID) expect(verdict(pipe, body)).toHaveProperty('passed');
    const parsed = pipe.transform({ ...VALID[2], vendor_extra: 1 });
    expect(parsed).toMatchObject({ model: 'auto', temperature: 0.2, stop: ['\n', 'END'] });
  });

  it('reports a missing field as missing, and only that', () => {
    expect(refusal(pipe, { model: 'auto' })).toEqual({
      message: 'Invalid request body: messages is required',
      param: 'messages',
    });
    expect(refusal(pipe, { messages: [user] }).message).toBe(
      'Invalid request body: model is required',
    );
    expect(refusal(pipe, { model: 'auto', messages: [{ role: 'user' }] })).toEqual({
      message: 'Invalid request body: messages.0.content is required',
      param: 'messages.0.content',
    });
  });

  it('names each problem by its path, the first one as the param', () => {
    const { message, param } = refusal(pipe, {
      model: 'auto',
      messages: [{ role: 'robot', content: 'x' }, user],
      temperature: 7,
    });
    expect(param).toBe('messages.0.role');
    expect(message).toBe(
      'Invalid request body: messages.0.role must be one of system, developer, user, assistant, ' +
        'tool; temperature must be at most 2',
    );
  });

  it('words the problems of a part inside content, and media outside a user message', () => {
    expect(
      refusal(pipe, {
        model: 'auto',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: '' } }] }],
      }).message,
    ).toContain('messages.0.content.0.image_url.url must not be empty');
    expect(
      refusal(pipe, {
        model: 'auto',
        messages: [
          {
            role: 'system',
            content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
          },
        ],
      }).message,
    ).toContain('messages.0.content must be a string or an array of text parts');
    expect(refusal(pipe, { model: 'auto', messages: [user], n: 2 }).message).toContain(
      'n must be 1: one choice per request is served',
    );
  });

  it.each([
    ['file:///etc/passwd', 'must be an http(s) URL or a data:image/...;base64, URL'],
    ['gs://bucket/a.png', 'must be an http(s) URL or a data:image/...;base64, URL'],
    ['data:text/html;base64,PGI+', 'must be a data URL of an image'],
    ['data:image/png,AAAA', 'must be a data URL with base64 data'],
    ['data:image/png;base64,@@@', 'must be a data URL with base64 data'],
  ])('refuses the image URL %s before any model is called', (url, says) => {
    const answer = refusal(pipe, {
      model: 'auto',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
    });

    expect(answer.param).toBe('messages.0.content.0.image_url.url');
    expect(answer.message).toContain(says);
  });

  it('keeps its bounds: Infinity is no integer, 4096 messages at most, a JSON object only', () => {
    const raw = '{"model":"auto","max_tokens":1e999,"messages":[{"role":"user","content":"hi"}]}';
    expect(refusal(pipe, JSON.parse(raw)).param).toBe('max_tokens');
    const many = Array.from({ length: 4097 }, () => user);
    expect(refusal(pipe, { model: 'auto', messages: many }).message).toContain('at most 4096');
    expect(verdict(pipe, { model: 'auto', messages: many.slice(1) })).toHaveProperty('passed');
    expect(refusal(pipe, [user]).message).toContain('must be a JSON object');
  });

  it('answers every body of the fuzz corpus with a pass or a 400, never anything else', () => {
    const fuzzed = hostileBodies(3_000)
      .filter((body) => body.path === '/v1/chat/completions')
      .map((body) => body.raw);
    const { passed, refused } = expectOnlyClientErrors(
      pipe,
      [...VALID.map((body) => JSON.stringify(body)), ...fuzzed],
      (body) => toChatRequest(body),
    );
    expect(passed).toBeGreaterThan(VALID.length);
    expect(refused).toBeGreaterThan(passed);
  });
});
