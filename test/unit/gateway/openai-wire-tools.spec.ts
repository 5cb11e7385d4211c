import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { chatCompletionBody } from '../../../apps/gateway/src/openai/chat-completion-body.js';
import { bodyProblems, wording } from '../../../apps/gateway/src/http/wire-problems.js';
import { toChatRequest } from '../../../apps/gateway/src/openai/to-chat-request.js';
import {
  ChunkEncoder,
  toChatCompletion,
} from '../../../apps/gateway/src/openai/to-chat-completion.js';
import type { ChatStreamEvent } from '../../../src/index.js';

const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
const ask = { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools };
const origin = { model: 'mini', origin: {} };

function problems(body: unknown): string {
  const parsed = chatCompletionBody.safeParse(body, { error: wording });
  if (parsed.success) return '';
  return bodyProblems(parsed.error.issues)
    .map(({ message }) => message)
    .join('\n');
}

describe('named tool_choice', () => {
  it('accepts a function of the tools and maps it to { name }', () => {
    const body = { ...ask, tool_choice: { type: 'function', function: { name: 'lookup' } } };
    expect(problems(body)).toBe('');
    expect(toChatRequest(body as never).parameters?.toolChoice).toEqual({ name: 'lookup' });
    expect(toChatRequest({ ...ask, tool_choice: 'required' } as never).parameters?.toolChoice).toBe(
      'required',
    );
  });

  it('refuses a name that is not among the tools, and malformed choices', () => {
    const named = (name: unknown) => ({
      ...ask,
      tool_choice: { type: 'function', function: { name } },
    });
    expect(problems(named('other'))).toContain("names the function 'other'");
    expect(problems({ ...named('lookup'), tools: undefined })).toContain('not one of the tools');
    expect(problems(named(''))).toContain('must be one of auto, required, none');
    expect(problems({ ...ask, tool_choice: 'always' })).toContain('must be one of');
    expect(problems({ ...ask, tool_choice: { type: 'tool', name: 'lookup' } })).toContain(
      'must be one of',
    );
  });
});

function encode(events: ChatStreamEvent[]) {
  const encoder = new ChunkEncoder('chatcmpl-1', 1, () => origin);
  return events.flatMap((event) => encoder.encode(event));
}

describe('ChunkEncoder and tool-call deltas', () => {
  it('streams arguments as they arrive and does not repeat them for the whole tool call', () => {
    const toolCall = { id: 'call_a', name: 'lookup', arguments: '{"q":"x"}' };
    const chunks = encode([
      { type: 'tool-call-delta', index: 0, id: 'call_a', name: 'lookup', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"q":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"x"}' },
      { type: 'tool-call', toolCall },
      {
        type: 'complete',
        response: {
          aiMessage: { role: 'assistant', toolCalls: [toolCall] },
          finishReason: 'tool_calls',
        },
      },
    ]);
    const deltas = chunks.map((chunk) => chunk.choices[0]!.delta);
    expect(deltas[0]).toEqual({ role: 'assistant', content: null, refusal: null });
    expect(deltas.slice(1, 4).map((delta) => delta.tool_calls)).toEqual([
      [{ index: 0, id: 'call_a', type: 'function', function: { name: 'lookup', arguments: '' } }],
      [{ index: 0, function: { arguments: '{"q":' } }],
      [{ index: 0, function: { arguments: '"x"}' } }],
    ]);
    expect(chunks).toHaveLength(5);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('sends what the deltas missed, and a tool call without deltas whole under the next index', () => {
    const chunks = encode([
      { type: 'tool-call-delta', index: 3, id: 'toolu_1', name: 'a', argumentsDelta: '' },
      { type: 'tool-call', toolCall: { id: 'toolu_1', name: 'a', arguments: '{}' } },
      { type: 'tool-call', toolCall: { id: 'toolu_2', name: 'b', arguments: '{"n":1}' } },
    ]);
    expect(chunks.slice(2).map((chunk) => chunk.choices[0]!.delta.tool_calls)).toEqual([
      [{ index: 0, function: { arguments: '{}' } }],
      [
        {
          index: 1,
          id: 'toolu_2',
          type: 'function',
          function: { name: 'b', arguments: '{"n":1}' },
        },
      ],
    ]);
  });

  it('ignores event types it does not know', () => {
    const chunks = encode([{ type: 'reasoning-delta', text: 'hm' } as unknown as ChatStreamEvent]);
    expect(chunks).toHaveLength(1); // the role chunk only
  });
});

describe('what the upstream reported passes through', () => {
  it('keeps system_fingerprint, service_tier, refusal and logprobs', () => {
    const completion = toChatCompletion(
      {
        aiMessage: {
          role: 'assistant',
          text: 'I cannot help with that',
          attributes: {
            refusal: 'I cannot help with that',
            logprobs: [{ token: 'I', logprob: -0.1, topLogprobs: [{ token: 'I', logprob: -0.1 }] }],
          },
        },
        upstream: { systemFingerprint: 'fp_1', serviceTier: 'default' },
      },
      origin,
      1,
    );
    expect(completion.system_fingerprint).toBe('fp_1');
    expect(completion.service_tier).toBe('default');
    expect(completion.choices[0]!.message).toEqual({
      role: 'assistant',
      content: null,
      refusal: 'I cannot help with that',
    });
    expect(completion.choices[0]!.logprobs!.content[0]).toEqual({
      token: 'I',
      logprob: -0.1,
      bytes: null,
      top_logprobs: [{ token: 'I', logprob: -0.1, bytes: null }],
    });
  });

  it('has no refusal and no service fields when the upstream said nothing', () => {
    const completion = toChatCompletion(
      { aiMessage: { role: 'assistant', text: 'hi' } },
      origin,
      1,
    );
    expect(completion.choices[0]!.message).toEqual({ role: 'assistant', content: 'hi' });
    expect(completion.choices[0]!.logprobs).toBeNull();
    expect('system_fingerprint' in completion).toBe(false);
  });
});

describe("the library's ChatRequestDto takes a named toolChoice", () => {
  it('accepts { name } of one of the tools and refuses others', async () => {
    const { ChatRequestDto } = await import('../../../src/nest/dto/chat-request.dto.js');
    const check = (toolChoice: unknown) =>
      validateSync(
        plainToInstance(ChatRequestDto, {
          messages: [{ role: 'user', content: 'hi' }],
          parameters: { tools: [{ name: 'lookup' }], toolChoice },
        }),
      )
        .flatMap((e) => e.children ?? [])
        .flatMap((e) => Object.values(e.constraints ?? {}));
    expect(check({ name: 'lookup' })).toEqual([]);
    expect(check('required')).toEqual([]);
    expect(check({ name: 'other' })).toEqual([
      'toolChoice must be { name } naming one of the tools',
    ]);
  });
});
