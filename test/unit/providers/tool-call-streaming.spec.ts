import { describe, expect, it } from '@jest/globals';
import { userMessage } from '../../../src/core/chat/messages.js';
import { toAnthropicBody } from '../../../src/providers/anthropic/anthropic-request-mapper.js';
import { AnthropicStreamAssembler } from '../../../src/providers/anthropic/anthropic-stream-assembler.js';
import { toOpenAiBody } from '../../../src/providers/openai/openai-request-mapper.js';
import { OpenAiStreamAssembler } from '../../../src/providers/openai/openai-stream-assembler.js';
import { LocalDemoChatModel } from '../../../src/providers/local/local-demo-chat-model.js';
import type { ChatRequest, ChatStreamEvent } from '../../../src/index.js';

const tools = [
  { name: 'weather', parameters: { type: 'object' } },
  { name: 'lookup', parameters: { type: 'object', properties: { term: { type: 'string' } } } },
];
const named: ChatRequest = {
  messages: [userMessage('define ubiquitous')],
  parameters: { tools, toolChoice: { name: 'lookup' } },
};

describe('a named tool choice', () => {
  it('is sent as OpenAI’s function choice and Anthropic’s tool choice', () => {
    const openAi = toOpenAiBody(named, {
      provider: 'openai',
      model: 'm',
      maxTokensParameter: 'max_tokens',
      strictJsonSchema: false,
      logprobs: false,
    });
    expect(openAi.tool_choice).toEqual({ type: 'function', function: { name: 'lookup' } });
    const anthropic = toAnthropicBody(named, {
      provider: 'anthropic',
      model: 'c',
      maxTokens: 1024,
      structuredOutputs: false,
    });
    expect(anthropic.tool_choice).toEqual({ type: 'tool', name: 'lookup' });
  });

  it('makes the demo model call that tool, with arguments shaped by its schema', async () => {
    const response = await new LocalDemoChatModel({ name: 'demo' }).chat(named);
    const call = response.aiMessage.toolCalls![0]!;
    expect(call.name).toBe('lookup');
    expect(JSON.parse(call.arguments)).toEqual({ term: 'define ubiquitous' });
  });
});

describe('tool-call argument deltas', () => {
  it('the OpenAI assembler forwards each fragment, with the id on the first', () => {
    const assembler = new OpenAiStreamAssembler('m');
    const fragment = (tool: Record<string, unknown>) =>
      assembler.push({ choices: [{ index: 0, delta: { tool_calls: [tool] } }] } as never);
    const events = [
      ...fragment({ index: 0, id: 'call_1', function: { name: 'lookup', arguments: '' } }),
      ...fragment({ index: 0, function: { arguments: '{"term":' } }),
      ...fragment({ index: 0, function: { arguments: '"x"}' } }),
    ];
    expect(events).toEqual([
      { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'lookup', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"term":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"x"}' },
    ]);
    assembler.push({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] } as never);
    expect(assembler.finish()[0]).toEqual({
      type: 'tool-call',
      toolCall: { id: 'call_1', name: 'lookup', arguments: '{"term":"x"}' },
    });
  });

  it('the Anthropic assembler numbers tool blocks among themselves and streams their JSON', () => {
    const assembler = new AnthropicStreamAssembler('c');
    const upstream: Record<string, unknown>[] = [
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'lookup' },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"term":"x"}' },
      },
      { type: 'content_block_stop', index: 1 },
    ];
    const events = upstream.flatMap((event) => assembler.push(event));
    expect(events).toEqual([
      { type: 'text-delta', text: 'Let me' },
      { type: 'tool-call-delta', index: 0, id: 'toolu_1', name: 'lookup', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"term":"x"}' },
      {
        type: 'tool-call',
        toolCall: { id: 'toolu_1', name: 'lookup', arguments: '{"term":"x"}' },
      },
    ]);
  });

  it('the demo model streams its tool call in pieces before the whole call', async () => {
    const events: ChatStreamEvent[] = [];
    for await (const event of new LocalDemoChatModel({ name: 'demo' }).stream(named)) {
      events.push(event);
    }
    const deltas = events.filter((event) => event.type === 'tool-call-delta');
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    const joined = deltas.map((delta) => delta.argumentsDelta).join('');
    const whole = events.find((event) => event.type === 'tool-call');
    expect(whole?.type === 'tool-call' && whole.toolCall.arguments).toBe(joined);
    expect(events.at(-1)?.type).toBe('complete');
  });
});
