import { describe, expect, it } from '@jest/globals';
import { messagesBody } from '../../../apps/gateway/src/anthropic/messages-body.js';
import { toChatRequest } from '../../../apps/gateway/src/anthropic/to-chat-request.js';
import { WireBodyPipe } from '../../../apps/gateway/src/http/wire-body.pipe.js';
import { processToolCallIds } from '../../../apps/gateway/src/openai/tool-call-ids.js';
import { expectOnlyClientErrors, refusal, surfaceBodies, verdict } from './wire-body-fuzz.js';

const pipe = new WireBodyPipe(messagesBody);

const user = { role: 'user', content: 'What is the capital of France?' };

/** Well-formed bodies of every shape the surface takes. */
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
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: 'AAAA' },
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hm', signature: 's' },
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
    tool_choice: { type: 'tool', name: 'lookup' },
  },
];

/** The 400's message for a minimal body with `fields` changed. */
const refusalWith = (fields: object) =>
  refusal(pipe, { model: 'auto', max_tokens: 10, messages: [user], ...fields }).message;

describe('the Messages body, described once (messagesBody)', () => {
  it('passes the well-formed bodies', () => {
    for (const body of VALID) expect(verdict(pipe, body)).toHaveProperty('passed');
  });

  it('reports a missing field as missing, and only that', () => {
    expect(refusal(pipe, { model: 'auto', max_tokens: 10 })).toEqual({
      message: 'Invalid request body: messages is required',
      param: 'messages',
    });
    expect(refusal(pipe, { model: 'auto', messages: [] }).message).toBe(
      'Invalid request body: max_tokens is required; messages must be a non-empty array',
    );
  });

  it('refuses blocks in the wrong turn, server tools and stored files by name', () => {
    expect(
      refusalWith({ messages: [{ role: 'assistant', content: [{ type: 'tool_result' }] }] }),
    ).toContain('messages.0.content.0.type: tool_result blocks belong to user messages');
    expect(refusalWith({ tools: [{ type: 'web_search_20250305', name: 'web' }] })).toContain(
      "tools.0.type 'web_search_20250305': server tools",
    );
    expect(
      refusalWith({
        messages: [
          {
            role: 'user',
            content: [{ type: 'document', source: { type: 'base64', media_type: 'x', data: 'A' } }],
          },
        ],
      }),
    ).toContain('messages.0.content.0.source.media_type must be application/pdf');
    expect(refusalWith({ messages: [{ role: 'system', content: 'x' }] })).toContain(
      'messages.0.role must be user or assistant',
    );
  });

  it.each([
    [
      'image',
      { type: 'base64', media_type: 'text/html', data: 'PGI+' },
      'source.media_type',
      'must be one of image/jpeg, image/png, image/gif, image/webp',
    ],
    [
      'image',
      { type: 'base64', media_type: 'image/png', data: 'data:image/png;base64,AAAA' },
      'source.data',
      'must be base64',
    ],
    [
      'image',
      { type: 'url', url: 'file:///etc/passwd' },
      'source.url',
      'must be an http:// or https:// URL',
    ],
    [
      'document',
      { type: 'base64', media_type: 'application/pdf', data: '@@@' },
      'source.data',
      'must be base64',
    ],
  ])('refuses an %s whose source is %j, naming the field', (type, source, field, says) => {
    const answer = refusal(pipe, {
      model: 'auto',
      max_tokens: 10,
      messages: [{ role: 'user', content: [{ type, source }] }],
    });

    expect(answer.param).toBe(`messages.0.content.0.${field}`);
    expect(answer.message).toContain(says);
  });

  it('keeps its bounds: Infinity is no integer; a model name of 256 Latin-1 characters', () => {
    const raw = '{"model":"auto","max_tokens":1e999,"messages":[{"role":"user","content":"hi"}]}';
    expect(refusal(pipe, JSON.parse(raw)).param).toBe('max_tokens');
    const long = { model: '🙂'.repeat(257), max_tokens: 1, messages: [user] };
    expect(refusal(pipe, long).param).toBe('model');
    expect(verdict(pipe, { ...long, model: 'é'.repeat(256) })).toHaveProperty('passed');
    expect(refusal(pipe, { ...long, model: 'é'.repeat(257) }).param).toBe('model');
    // what a response header cannot carry
    expect(refusal(pipe, { ...long, model: '🙂' }).param).toBe('model');
  });

  it('answers every body of the fuzz corpus with a pass or a 400, never anything else', () => {
    const { passed, refused } = expectOnlyClientErrors(
      pipe,
      [...VALID.map((body) => JSON.stringify(body)), ...surfaceBodies('/v1/messages')],
      (body) => toChatRequest(body, processToolCallIds),
    );
    expect(passed).toBeGreaterThan(VALID.length);
    expect(refused).toBeGreaterThan(passed);
  });
});
