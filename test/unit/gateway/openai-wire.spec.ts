import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import {
  chatCompletionBody,
  MAX_MESSAGES,
} from '../../../apps/gateway/src/openai/chat-completion-body.js';
import {
  bodyProblems,
  describeProblem,
  wording,
} from '../../../apps/gateway/src/http/wire-problems.js';
import { toChatRequest } from '../../../apps/gateway/src/openai/to-chat-request.js';
import {
  ChunkEncoder,
  toChatCompletion,
} from '../../../apps/gateway/src/openai/to-chat-completion.js';
import {
  decodeToolCallId,
  encodeToolCallId,
} from '../../../apps/gateway/src/openai/tool-call-ids.js';
import {
  toWireError,
  UnknownModelException,
} from '../../../apps/gateway/src/openai/openai-error.js';
import { NoMatchingModelFoundException } from '../../../src/core/errors/exceptions.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { ROUTE_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import { MODEL_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import type { ChatStreamEvent } from '../../../src/core/chat/chat-model.js';

/** The body's problems as `path: <path> <problem>`. */
function problems(body: unknown): string[] {
  const parsed = chatCompletionBody.safeParse(body, { error: wording });
  if (parsed.success) return [];
  return bodyProblems(parsed.error.issues).map(
    (problem) => `${problem.path}: ${describeProblem(problem)}`,
  );
}

describe('tool call ids carry the route across a stateless tool loop', () => {
  it('round-trips route and model and restores the provider id', () => {
    const id = encodeToolCallId('call_abc-1', { route: 'complex', model: 'gpt-x' });
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeToolCallId(id)).toEqual({
      providerId: 'call_abc-1',
      origin: { route: 'complex', model: 'gpt-x' },
    });
  });

  it('leaves foreign ids alone', () => {
    expect(decodeToolCallId('call_123')).toEqual({ providerId: 'call_123' });
    expect(decodeToolCallId('mr-zz-1')).toEqual({ providerId: 'mr-zz-1' });
  });
});

describe('OpenAI body → ChatRequest', () => {
  it('maps parameters, parts, tool calls and the tool-loop route', () => {
    const toolId = encodeToolCallId('call_1', { route: 'complex', model: 'm2' });
    const request = toChatRequest({
      model: 'default',
      temperature: 0.3,
      max_tokens: 50,
      stop: 'END',
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'x', schema: { type: 'object' } },
      },
      messages: [
        { role: 'developer', content: 'be brief' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: toolId, type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: toolId, content: '42' },
      ],
    });
    expect(request.parameters).toEqual({
      temperature: 0.3,
      maxOutputTokens: 50,
      stopSequences: ['END'],
      responseFormat: { type: 'json', jsonSchema: { name: 'x', schema: { type: 'object' } } },
    });
    expect(request.messages).toEqual([
      { role: 'system', text: 'be brief' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this' },
          { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        ],
      },
      {
        role: 'assistant',
        toolCalls: [{ id: 'call_1', name: 'f', arguments: '{}' }],
        attributes: { [ROUTE_ATTRIBUTE]: 'complex', [MODEL_ATTRIBUTE]: 'm2' },
      },
      { role: 'tool', toolCallId: 'call_1', text: '42' },
    ]);
  });
});

/** Who answered, as the controllers pass it: the demo model on the simple route. */
function answeredBy() {
  return { model: 'local-fast', origin: { route: 'simple', model: 'local-fast' } };
}

describe('ChatResponse → OpenAI completion and chunks', () => {
  it('names the model that answered, encodes tool call ids and reports usage', () => {
    const completion = toChatCompletion(
      {
        aiMessage: { role: 'assistant', toolCalls: [{ id: 'c1', name: 'f', arguments: '{}' }] },
        tokenUsage: { inputTokens: 3, outputTokens: 4 },
        finishReason: 'tool_calls',
      },
      answeredBy(),
      1000,
    );
    expect(completion.model).toBe('local-fast');
    expect(completion.usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    const id = completion.choices[0]!.message.tool_calls![0]!.id;
    expect(decodeToolCallId(id).origin).toEqual({ route: 'simple', model: 'local-fast' });
  });

  it('streams a role chunk first and usage with the finish reason last', () => {
    const encoder = new ChunkEncoder('chatcmpl-1', 1000, answeredBy);
    const chunks = [
      ...encoder.encode({ type: 'text-delta', text: 'Hel' }),
      ...encoder.encode({ type: 'text-delta', text: 'lo' }),
      ...encoder.encode({
        type: 'complete',
        response: {
          aiMessage: { role: 'assistant', text: 'Hello' },
          tokenUsage: { totalTokens: 9 },
        },
      }),
    ];
    // the role chunk has content null, as OpenAI's (issue 16: '' made the AI SDK open a text part)
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? null)).toEqual([
      null,
      'Hel',
      'lo',
      null,
    ]);
    expect(chunks[0]!.choices[0]!.delta).toEqual({
      role: 'assistant',
      content: null,
      refusal: null,
    });
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage?.total_tokens).toBe(9);
  });
});

describe('request validation names the offending fields', () => {
  it('rejects an empty content part list and more messages than MAX_MESSAGES', () => {
    expect(
      problems({ model: 'm', messages: [{ role: 'user', content: [] }] }).join('\n'),
    ).toContain('messages.0.content');
    const many = Array.from({ length: MAX_MESSAGES + 1 }, () => ({ role: 'user', content: 'x' }));
    expect(problems({ model: 'm', messages: many }).join('\n')).toContain(
      `messages must contain at most ${MAX_MESSAGES} messages`,
    );
    expect(problems({ model: 'm', messages: many.slice(1) })).toEqual([]);
  });

  it('accepts a minimal body', () => {
    expect(problems({ model: 'default', messages: [{ role: 'user', content: 'hi' }] })).toEqual([]);
  });

  it('rejects a missing model, empty messages and a bad temperature', () => {
    const found = problems({ messages: [], temperature: 7 }).join('\n');
    expect(found).toContain('model:');
    expect(found).toContain('messages:');
    expect(found).toContain('temperature:');
  });

  it('rejects a bad role, bad content and a tool message without tool_call_id', () => {
    const found = problems({
      model: 'm',
      messages: [
        { role: 'wizard', content: 'x' },
        { role: 'user', content: [{ type: 'image_url' }] },
        { role: 'tool', content: 'x' },
      ],
    }).join('\n');
    expect(found).toContain('messages.0.role');
    expect(found).toContain('messages.1.content');
    expect(found).toContain('messages.2.tool_call_id');
  });
});

describe('errors in OpenAI shape', () => {
  it('everything cooling down → 503 with Retry-After in whole seconds', () => {
    const wire = toWireError(
      new NoMatchingModelFoundException('No matching route', [], { retryAfterMs: 1200 }),
    );
    expect(wire.status).toBe(503);
    expect(wire.headers['retry-after']).toBe('2');
  });

  it('unknown model → 404 model_not_found naming the model', () => {
    const wire = toWireError(new UnknownModelException('gpt-9', ['default']));
    expect(wire.status).toBe(404);
    expect(wire.body.error.code).toBe('model_not_found');
    expect(wire.body.error.message).toContain("'gpt-9'");
  });

  it('bad request → 400 with the validation messages', () => {
    const wire = toWireError(new BadRequestException(['model must be a string']));
    expect(wire).toMatchObject({
      status: 400,
      body: { error: { message: 'model must be a string' } },
    });
  });

  it('provider errors keep their meaning; unknown errors reveal only their class', () => {
    expect(
      toWireError(new ProviderException('too long', { kind: 'context-length', provider: 'openai' }))
        .status,
    ).toBe(400);
    expect(
      toWireError(
        new ProviderException('slow down', {
          kind: 'rate-limited',
          provider: 'openai',
          retryAfterMs: 3000,
        }),
      ).headers['retry-after'],
    ).toBe('3');
    const hidden = toWireError(new TypeError('secret sk-123 in a stack'));
    expect(hidden.status).toBe(500);
    expect(hidden.body.error.message).not.toContain('sk-123');
  });
});

const halfADollar = () => 0.5;

describe('ChunkEncoder.encodeJson', () => {
  it('writes what JSON.stringify writes of encode, for every kind of event', () => {
    const events: ChatStreamEvent[] = [
      { type: 'text-delta', text: 'He said "hi"\n\u2028 – ok \\' },
      { type: 'text-delta', text: '' },
      { type: 'text-delta', text: 'lo' },
      { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'f', argumentsDelta: '{"a"' },
      { type: 'tool-call', toolCall: { id: 'call_1', name: 'f', arguments: '{"a":1}' } },
      {
        type: 'complete',
        response: {
          aiMessage: { role: 'assistant', text: 'Hello' },
          tokenUsage: { inputTokens: 2, outputTokens: 3, cachedInputTokens: 1 },
          upstream: { systemFingerprint: 'fp_1', serviceTier: 'default' },
        },
      },
    ];
    for (const includeUsage of [false, true]) {
      // a model name that needs escaping, and one that changes mid-stream (a failover)
      let model = 'a "quoted" model';
      const by = () => ({ model, origin: { route: 'simple', model } });
      const objects = new ChunkEncoder('chatcmpl-"x"', 1000, by, halfADollar, includeUsage);
      const texts = new ChunkEncoder('chatcmpl-"x"', 1000, by, halfADollar, includeUsage);
      for (const [i, event] of events.entries()) {
        if (i === 2) model = 'another';
        const expected = objects.encode(event).map((chunk) => JSON.stringify(chunk));
        expect(texts.encodeJson(event)).toEqual(expected);
      }
    }
  });
});
