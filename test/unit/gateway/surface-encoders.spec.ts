import { describe, expect, it } from '@jest/globals';
import { MessageEventEncoder } from '../../../apps/gateway/src/anthropic/message-event-encoder.js';
import { toChatRequest as fromMessages } from '../../../apps/gateway/src/anthropic/to-chat-request.js';
import { ResponseEventEncoder } from '../../../apps/gateway/src/responses/response-event-encoder.js';
import { toChatRequest as fromResponses } from '../../../apps/gateway/src/responses/to-chat-request.js';
import { echoOf } from '../../../apps/gateway/src/responses/to-response.js';
import type { SseMessage } from '../../../apps/gateway/src/http/event-stream.js';
import { toWireError } from '../../../apps/gateway/src/openai/openai-error.js';
import { ToolCallIds } from '../../../apps/gateway/src/openai/tool-call-ids.js';
import type { ChatStreamEvent } from '../../../src/index.js';

const by = () => ({ model: 'demo', origin: {} });
const done = (finishReason: 'stop' | 'length' | 'tool_calls'): ChatStreamEvent => ({
  type: 'complete',
  response: {
    aiMessage: { role: 'assistant', text: 'Hi' },
    finishReason,
    tokenUsage: { inputTokens: 3, outputTokens: 1 },
  },
});
const types = (messages: SseMessage[]) => messages.map((m) => m.event);
const data = (messages: SseMessage[], type: string) =>
  messages.filter((m) => m.event === type).map((m) => m.data as Record<string, any>);

const ids = new ToolCallIds('unit-test-secret');
const encoder = () =>
  new ResponseEventEncoder('resp_1', 1, echoOf({ model: 'm', input: 'x' }), by, ids);

describe('ResponseEventEncoder', () => {
  it('closes the message item when a tool call starts, and sends a call without deltas whole', () => {
    const e = encoder();
    const out = [
      { type: 'text-delta', text: 'Hi' },
      { type: 'tool-call', toolCall: { id: 'c1', name: 'lookup', arguments: '{"q":1}' } },
      done('tool_calls'),
    ].flatMap((event) => e.encode(event as ChatStreamEvent));
    expect(types(out)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const completed = data(out, 'response.completed')[0]!.response;
    expect(completed.output.map((item: { type: string }) => item.type)).toEqual([
      'message',
      'function_call',
    ]);
    expect(completed.output[1]).toMatchObject({ call_id: 'c1', arguments: '{"q":1}' });
    expect(completed.usage).toMatchObject({ input_tokens: 3, output_tokens: 1, total_tokens: 4 });
  });

  it('a length stop is response.incomplete with max_output_tokens; unknown events add nothing', () => {
    const e = encoder();
    e.encode({ type: 'text-delta', text: 'Hi' });
    expect(e.encode({ type: 'reasoning' } as unknown as ChatStreamEvent)).toEqual([]);
    const out = e.encode(done('length'));
    const incomplete = data(out, 'response.incomplete')[0]!.response;
    expect(incomplete.status).toBe('incomplete');
    expect(incomplete.incomplete_details).toEqual({ reason: 'max_output_tokens' });
  });
});

describe('MessageEventEncoder', () => {
  it('sends a tool call without deltas as one JSON piece; empty and malformed inputs stay objects', () => {
    const e = new MessageEventEncoder('msg_1', by, ids);
    const out = [
      { type: 'tool-call', toolCall: { id: 't1', name: 'a', arguments: '' } },
      { type: 'tool-call', toolCall: { id: 't2', name: 'b', arguments: 'not json' } },
      done('tool_calls'),
    ].flatMap((event) => e.encode(event as ChatStreamEvent));
    const pieces = data(out, 'content_block_delta').map((d) => [d.index, d.delta.partial_json]);
    expect(pieces).toEqual([
      [0, '{}'],
      [1, '{"_raw":"not json"}'],
    ]);
    expect(data(out, 'message_delta')[0]).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { input_tokens: 3, output_tokens: 1 },
    });
    expect(types(out).at(-1)).toBe('message_stop');
  });

  it('fails with an error event in Anthropic’s shape', () => {
    const messages = new MessageEventEncoder('msg_1', by, ids).fail(toWireError(new Error('boom')));
    expect(messages).toEqual([
      {
        event: 'error',
        data: { type: 'error', error: { type: 'api_error', message: expect.any(String) } },
      },
    ]);
  });
});

describe('the new surfaces’ request mapping', () => {
  it('Messages: tool results first (errors said so), then the turn’s own text', () => {
    const request = fromMessages(
      {
        model: 'm',
        max_tokens: 5,
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 't1', name: 'a', input: { x: 1 } }],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't1', content: 'failed', is_error: true },
              { type: 'text', text: 'and then?' },
            ],
          },
        ],
        tool_choice: { type: 'any' },
      },
      ids,
    );
    expect(request.messages).toEqual([
      { role: 'system', text: 'Be brief.' },
      { role: 'user', content: 'q' },
      { role: 'assistant', toolCalls: [{ id: 't1', name: 'a', arguments: '{"x":1}' }] },
      { role: 'tool', toolCallId: 't1', text: 'Error: failed' },
      { role: 'user', content: 'and then?' },
    ]);
    expect(request.parameters).toEqual({ maxOutputTokens: 5, toolChoice: 'required' });
  });

  it('Responses: instructions first; consecutive function calls are one assistant turn', () => {
    const request = fromResponses(
      {
        model: 'm',
        instructions: 'Be brief.',
        input: [
          { role: 'user', content: 'q' },
          { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
          { type: 'function_call', call_id: 'b', name: 'g', arguments: '{}' },
          { type: 'function_call_output', call_id: 'a', output: '1' },
          {
            type: 'function_call_output',
            call_id: 'b',
            output: [{ type: 'input_text', text: '2' }],
          },
        ],
      },
      ids,
    );
    expect(request.messages).toEqual([
      { role: 'system', text: 'Be brief.' },
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        toolCalls: [
          { id: 'a', name: 'f', arguments: '{}' },
          { id: 'b', name: 'g', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', text: '1' },
      { role: 'tool', toolCallId: 'b', text: '2' },
    ]);
  });
});
