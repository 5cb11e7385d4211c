import { describe, expect, it } from '@jest/globals';
import { LocalDemoChatModel } from '../../../src/providers/local/local-demo-chat-model.js';
import { Capability } from '../../../src/core/chat/capability.js';
import type { ChatStreamEvent } from '../../../src/core/chat/chat-model.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';

const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: text }] });

describe('LocalDemoChatModel', () => {
  it('says which router, route and model answered, deterministically', async () => {
    const model = new LocalDemoChatModel({ name: 'local-fast' });
    const options = { attributes: { model_router: 'default', chat_model_route: 'simple' } };
    const first = await model.chat(ask('what time is it'), options);
    const second = await model.chat(ask('what time is it'), options);
    expect(first.aiMessage.text).toContain(
      "Model 'local-fast' on router 'default', route 'simple'",
    );
    expect(first.aiMessage.text).toContain('what time is it');
    expect(second.aiMessage.text).toBe(first.aiMessage.text);
    expect(first.modelName).toBe('local-fast');
    expect(first.tokenUsage!.totalTokens).toBe(
      first.tokenUsage!.inputTokens! + first.tokenUsage!.outputTokens!,
    );
  });

  it('fails every Nth call with a transient provider error', async () => {
    const model = new LocalDemoChatModel({ name: 'flaky', failEvery: 3 });
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      outcomes.push(
        await model.chat(ask('hi')).then(
          () => 'ok',
          (e: unknown) =>
            e instanceof ProviderException && e.kind === 'transient' ? 'fail' : 'other',
        ),
      );
    }
    expect(outcomes).toEqual(['ok', 'ok', 'fail', 'ok', 'ok', 'fail']);
  });

  it('calls the first offered tool, then answers from the tool result', async () => {
    const model = new LocalDemoChatModel({ name: 'm' });
    const tools = [{ name: 'weather', parameters: { type: 'object' } }];
    const call = await model.chat({ ...ask('weather in Oslo'), parameters: { tools } });
    expect(call.finishReason).toBe('tool_calls');
    const toolCall = call.aiMessage.toolCalls![0]!;
    expect(JSON.parse(toolCall.arguments)).toEqual({ query: 'weather in Oslo' });
    const final = await model.chat({
      messages: [
        ...ask('weather in Oslo').messages,
        call.aiMessage,
        { role: 'tool', toolCallId: toolCall.id, text: 'sunny' },
      ],
      parameters: { tools },
    });
    expect(final.aiMessage.text).toContain('The tool returned: sunny');
  });

  it('calls a tool after a tool result too when the choice is required or named', async () => {
    const model = new LocalDemoChatModel({ name: 'm' });
    const tools = [
      { name: 'weather', parameters: { type: 'object' } },
      { name: 'clock', parameters: { type: 'object' } },
    ];
    const afterResult = (toolChoice: 'auto' | 'required' | { name: string }) =>
      model.chat({
        messages: [
          ...ask('weather in Oslo').messages,
          { role: 'assistant', toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{}' }] },
          { role: 'tool', toolCallId: 'call_1', text: 'sunny' },
        ],
        parameters: { tools, toolChoice },
      });
    const required = await afterResult('required');
    expect(required.finishReason).toBe('tool_calls');
    expect(required.aiMessage.toolCalls![0]!.name).toBe('weather');
    const named = await afterResult({ name: 'clock' });
    expect(named.aiMessage.toolCalls![0]!.name).toBe('clock');
    const auto = await afterResult('auto');
    expect(auto.aiMessage.toolCalls).toBeUndefined();
    expect(auto.aiMessage.text).toContain('The tool returned: sunny');
  });

  it('answers a JSON schema with a matching object', async () => {
    const model = new LocalDemoChatModel({ name: 'm' });
    expect(model.supportedCapabilities().has(Capability.RESPONSE_FORMAT_JSON_SCHEMA)).toBe(true);
    const response = await model.chat({
      ...ask('a city'),
      parameters: {
        responseFormat: {
          type: 'json',
          jsonSchema: {
            name: 'city',
            schema: {
              type: 'object',
              properties: { name: { type: 'string' }, pop: { type: 'integer' } },
            },
          },
        },
      },
    });
    expect(JSON.parse(response.aiMessage.text!)).toEqual({ name: 'a city', pop: 0 });
  });

  it('continues an assistant prefill with only the rest of its answer', async () => {
    const model = new LocalDemoChatModel({ name: 'm' });
    const full = (await model.chat(ask('explain routing'))).aiMessage.text!;
    const prefix = full.slice(0, 20);
    const rest = await model.chat({
      messages: [...ask('explain routing').messages, { role: 'assistant', text: prefix }],
    });
    expect(prefix + rest.aiMessage.text).toBe(full);
  });

  it('streams word by word and ends with one complete event', async () => {
    const model = new LocalDemoChatModel({ name: 'm' });
    const events: ChatStreamEvent[] = [];
    for await (const e of model.stream(ask('hello there'))) events.push(e);
    const complete = events.filter((e) => e.type === 'complete');
    expect(complete).toHaveLength(1);
    const text = events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
    expect(text).toBe(complete[0]!.type === 'complete' ? complete[0]!.response.aiMessage.text : '');
    expect(events.length).toBeGreaterThan(3);
  });
});
