import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Capability } from '../../../src/core/chat/capability.js';
import {
  aiMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
} from '../../../src/core/chat/messages.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import type { RoutingEvent } from '../../../src/core/observability/routing-event.js';
import {
  AnthropicChatModel,
  type AnthropicChatModelOptions,
} from '../../../src/providers/anthropic/anthropic-chat-model.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { completes, drain, rejectionOf, textOf, until } from './provider-test-kit.js';

const KEY = 'sk-ant-api03-secret-abcdef0123456789';
const NOW = Date.UTC(2030, 5, 1, 8, 0, 0);

const weather = {
  name: 'weather',
  description: 'Weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const time = {
  name: 'time',
  parameters: { type: 'object', properties: { zone: { type: 'string' } } },
};

describe('AnthropicChatModel against the fake provider', () => {
  let provider: FakeProvider;
  const model = (name: string, options: Partial<AnthropicChatModelOptions> = {}) =>
    new AnthropicChatModel({
      baseURL: provider.anthropicBaseURL,
      apiKey: KEY,
      model: name,
      clock: () => NOW,
      ...options,
    });
  const chatError = async (name: string) =>
    (await rejectionOf(model(name).chat({ messages: [userMessage('hi')] }))) as ProviderException;
  const lastBody = () => provider.requests.last()!.body as Record<string, unknown>;

  beforeAll(async () => {
    provider = await FakeProvider.start({ clock: () => NOW });
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.reset());

  describe('chat', () => {
    it('answers with text, usage, stop reason, id; the system prompt travels apart', async () => {
      const response = await model('claude-fake').chat({
        messages: [systemMessage('be brief'), systemMessage('be kind'), userMessage('hello world')],
      });
      expect(lastBody()).toMatchObject({
        model: 'claude-fake',
        system: 'be brief\n\nbe kind',
        max_tokens: 4096,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hello world' }] }],
      });
      const { headers } = provider.requests.last()!;
      // this SDK version sends the key as a bearer token; older ones used x-api-key
      expect(headers['x-api-key'] ?? headers.authorization?.replace('Bearer ', '')).toBe(KEY);
      expect(headers['anthropic-version']).toBeDefined();
      expect(response).toMatchObject({
        aiMessage: { role: 'assistant', text: 'You said: hello world (model claude-fake)' },
        modelName: 'claude-fake',
        finishReason: 'stop',
        tokenUsage: { inputTokens: 6, outputTokens: 6, totalTokens: 12 },
      });
      expect(response.id).toMatch(/^msg_/);
    });

    it('maps max tokens (length), stop sequences (stop) and media parts', async () => {
      const truncated = await model('claude-fake').chat({
        messages: [userMessage('one two three')],
        parameters: { maxOutputTokens: 2, stopSequences: ['zzz'] },
      });
      expect(lastBody()).toMatchObject({ max_tokens: 2, stop_sequences: ['zzz'] });
      expect(truncated.finishReason).toBe('length');
      const stopped = await model('claude-fake').chat({
        messages: [
          userMessage([
            { type: 'text', text: 'one two' },
            { type: 'image', data: 'aGk=', mimeType: 'image/jpeg' },
            { type: 'pdf', url: 'https://example.com/a.pdf' },
          ]),
        ],
        parameters: { stopSequences: [' two'] },
      });
      expect(stopped).toMatchObject({ finishReason: 'stop', aiMessage: { text: 'You said: one' } });
      expect((lastBody().messages as Array<{ content: unknown[] }>)[0]!.content).toEqual([
        { type: 'text', text: 'one two' },
        { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'aGk=' } },
        { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
      ]);
    });

    it('rejects audio before sending, naming the part', async () => {
      const error = await rejectionOf(
        model('claude-fake').chat({ messages: [userMessage([{ type: 'audio', data: 'AAAA' }])] }),
      );
      expect(error).toMatchObject({ kind: 'invalid-request' });
      expect((error as Error).message).toContain('messages[0].content[0]');
      expect(provider.requests.count()).toBe(0);
    });

    it('round-trips tools: tool_use → tool calls, tool results in one user turn → answer', async () => {
      const claude = model('claude-parallel-tools');
      const first = await claude.chat({
        messages: [userMessage('Oslo')],
        parameters: { tools: [weather, time], toolChoice: 'required' },
      });
      expect(lastBody()).toMatchObject({
        tool_choice: { type: 'any' },
        tools: [
          { name: 'weather', description: 'Weather in a city', input_schema: weather.parameters },
          { name: 'time', input_schema: time.parameters },
        ],
      });
      expect(first.finishReason).toBe('tool_calls');
      const [a, b] = first.aiMessage.toolCalls!;
      expect([a!.name, JSON.parse(a!.arguments), b!.name]).toEqual([
        'weather',
        { city: 'Oslo' },
        'time',
      ]);
      expect(a!.id).toMatch(/^toolu_/);
      const second = await claude.chat({
        messages: [
          userMessage('Oslo'),
          first.aiMessage,
          toolResultMessage(a!.id, 'rainy', 'weather'),
          toolResultMessage(b!.id, '10:00', 'time'),
        ],
        parameters: { tools: [weather, time] },
      });
      const messages = lastBody().messages as Array<{
        role: string;
        content: Array<Record<string, unknown>>;
      }>;
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(messages[1]!.content.map((block) => block.type)).toEqual(['tool_use', 'tool_use']);
      expect(messages[2]!.content).toEqual([
        { type: 'tool_result', tool_use_id: a!.id, content: 'rainy' },
        { type: 'tool_result', tool_use_id: b!.id, content: '10:00' },
      ]);
      expect(second.aiMessage.text).toBe('Tool time returned: 10:00 (model claude-parallel-tools)');
    });

    it('uses structured outputs for a JSON schema only when enabled', async () => {
      const schema = {
        type: 'object',
        properties: { route: { type: 'string', enum: ['a', 'b'] } },
      };
      const request = {
        messages: [userMessage('pick')],
        parameters: {
          responseFormat: { type: 'json' as const, jsonSchema: { name: 'r', schema } },
        },
      };
      const error = await rejectionOf(model('claude-fake').chat(request));
      expect(error).toMatchObject({ kind: 'invalid-request' });
      expect((error as Error).message).toContain('structuredOutputs');
      const structured = model('claude-fake', { structuredOutputs: true });
      expect(structured.supportedCapabilities().has(Capability.RESPONSE_FORMAT_JSON_SCHEMA)).toBe(
        true,
      );
      const response = await structured.chat(request);
      expect(lastBody()).toMatchObject({
        output_config: { format: { type: 'json_schema', schema } },
      });
      expect(JSON.parse(response.aiMessage.text!)).toEqual({ route: 'a' });
    });

    it('reports a refusal as finish reason content_filter, not an error', async () => {
      const response = await model('claude-fault-content-filter-finish').chat({
        messages: [userMessage('x y')],
      });
      expect(response.finishReason).toBe('content_filter');
    });
  });

  describe('prefill', () => {
    it('declares ASSISTANT_PREFILL and continues a trailing assistant message', async () => {
      const claude = model('claude-fake');
      expect(claude.supportedCapabilities().has(Capability.ASSISTANT_PREFILL)).toBe(true);
      const response = await claude.chat({
        messages: [userMessage('hello world'), aiMessage('You said: hello')],
      });
      expect(response.aiMessage.text).toBe(' world (model claude-fake)');
    });

    it('trims trailing whitespace from the prefill, which the API would reject', async () => {
      const response = await model('claude-fake').chat({
        messages: [userMessage('hello world'), aiMessage('You said: hello ')],
      });
      expect((lastBody().messages as Array<{ content: unknown }>)[1]!.content).toEqual([
        { type: 'text', text: 'You said: hello' },
      ]);
      expect(response.aiMessage.text).toBe(' world (model claude-fake)');
    });

    it('a model that refuses prefill answers 400 → invalid-request', async () => {
      const error = await rejectionOf(
        model('claude-no-prefill').chat({ messages: [userMessage('hi'), aiMessage('Sure')] }),
      );
      expect(error).toMatchObject({ kind: 'invalid-request', status: 400 });
      expect((error as Error).message).toContain('prefill');
    });
  });

  describe('stream', () => {
    it('streams text deltas and one complete with usage', async () => {
      const { events, error } = await drain(
        model('claude-fake').stream({ messages: [userMessage('hello world')] }),
      );
      expect(error).toBeUndefined();
      expect(lastBody().stream).toBe(true);
      expect(textOf(events)).toBe('You said: hello world (model claude-fake)');
      expect(events.filter((e) => e.type === 'text-delta').length).toBeGreaterThan(1);
      expect(completes(events)).toBe(1);
      const last = events.at(-1)!;
      expect(last.type === 'complete' && last.response).toMatchObject({
        finishReason: 'stop',
        modelName: 'claude-fake',
        tokenUsage: { inputTokens: 2, outputTokens: 6, totalTokens: 8 },
      });
      // message_start told the input tokens before any output
      expect(events[0]).toEqual({ type: 'input-usage', tokenUsage: { inputTokens: 2 } });
    });

    it('streams tool calls assembled from input_json_delta', async () => {
      const { events } = await drain(
        model('claude-tools').stream({
          messages: [userMessage('Rome')],
          parameters: { tools: [weather] },
        }),
      );
      const calls = events.flatMap((e) => (e.type === 'tool-call' ? [e.toolCall] : []));
      expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
        ['weather', { city: 'Rome' }],
      ]);
      const last = events.at(-1)!;
      expect(last.type === 'complete' && last.response.finishReason).toBe('tool_calls');
    });

    it('completes without message_stop once the stop reason arrived', async () => {
      const { events, error } = await drain(
        model('claude-fault-no-done').stream({ messages: [userMessage('hi')] }),
      );
      expect(error).toBeUndefined();
      expect(completes(events)).toBe(1);
      const open = await drain(
        model('claude-fault-no-done-open').stream({ messages: [userMessage('hi')] }),
      );
      expect(completes(open.events)).toBe(1);
    });

    it('throws on a cut stream and never completes', async () => {
      const { events, error } = await drain(
        model('claude-fault-cut-after-2').stream({ messages: [userMessage('hello')] }),
      );
      expect(textOf(events)).toBe('You said:');
      expect(completes(events)).toBe(0);
      expect(error).toMatchObject({
        name: 'ProviderException',
        kind: 'transient',
        provider: 'anthropic',
      });
    });

    it('maps an error event (overloaded) inside the stream', async () => {
      const { events, error } = await drain(
        model('claude-fault-error-after-1').stream({ messages: [userMessage('hello')] }),
      );
      expect(completes(events)).toBe(0);
      expect(error).toMatchObject({ kind: 'transient', code: 'overloaded_error' });
    });

    it("malformed chunk: 'fail' by default, 'skip' with an event", async () => {
      const failed = await drain(
        model('claude-fault-malformed-chunk').stream({ messages: [userMessage('hi')] }),
      );
      expect(failed.error).toMatchObject({ code: 'malformed_stream_chunk' });
      const observed: RoutingEvent[] = [];
      const skipped = await drain(
        model('claude-fault-malformed-chunk', { malformedChunks: 'skip' }).stream(
          { messages: [userMessage('hi')] },
          { observer: (event) => observed.push(event) },
        ),
      );
      expect(skipped.error).toBeUndefined();
      expect(textOf(skipped.events)).toBe('You said: hi (model claude-fault-malformed-chunk)');
      expect(observed.map((e) => e.type)).toEqual(['stream-chunk-skipped']);
    });

    it("stops on the caller's abort mid-stream with the caller's reason", async () => {
      const controller = new AbortController();
      const reason = new Error('stop');
      const stream = model('claude-fault-stall-after-1').stream(
        { messages: [userMessage('hi')] },
        { signal: controller.signal },
      );
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ type: 'input-usage' });
      expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'You' });
      const next = iterator.next();
      controller.abort(reason);
      await expect(next).rejects.toBe(reason);
    });
  });

  describe('errors', () => {
    it.each([
      ['fault-429-retry-after-7', 'rate-limited', 429, 'rate_limit_error', 7000],
      ['fault-529', 'transient', 529, 'overloaded_error', undefined],
      ['fault-500', 'transient', 500, 'api_error', undefined],
      ['fault-401', 'misconfigured', 401, 'authentication_error', undefined],
      ['fault-404', 'misconfigured', 404, 'not_found_error', undefined],
      ['fault-context-length', 'context-length', 400, 'invalid_request_error', undefined],
      ['fault-content-filter', 'content-policy', 400, 'invalid_request_error', undefined],
      ['fault-413', 'context-length', 413, 'request_too_large', undefined],
    ])('%s → %s, %s, %s, retryAfterMs %s', async (name, kind, status, code, retryAfterMs) => {
      const error = await chatError(name);
      expect(error).toBeInstanceOf(ProviderException);
      expect([error.kind, error.status, error.code, error.retryAfterMs, error.provider]).toEqual([
        kind,
        status,
        code,
        retryAfterMs,
        'anthropic',
      ]);
      expect(provider.requests.count(name)).toBe(1);
    });

    it('redacts the echoed key', async () => {
      const error = await chatError('fault-401');
      expect(error.message).not.toContain(KEY);
      expect(String((error.cause as Error).message)).not.toContain(KEY);
    });

    it('a reset connection is transient; a stream error before any event too', async () => {
      expect((await chatError('fault-reset')).kind).toBe('transient');
      const { events, error } = await drain(
        model('fault-503').stream({ messages: [userMessage('hi')] }),
      );
      expect(events).toEqual([]);
      expect(error).toMatchObject({ kind: 'transient', status: 503 });
    });

    it("returns the caller's abort reason for a hung provider", async () => {
      const controller = new AbortController();
      const reason = new Error('bye');
      const pending = rejectionOf(
        model('fault-hang').chat({ messages: [userMessage('hi')] }, { signal: controller.signal }),
      );
      await until(() => provider.requests.count('fault-hang') === 1);
      controller.abort(reason);
      expect(await pending).toBe(reason);
    });

    it('times out a hung provider with its own timeout, kind timeout', async () => {
      const error = (await rejectionOf(
        model('fault-hang', { timeout: 30 }).chat({ messages: [userMessage('hi')] }),
      )) as ProviderException;
      expect(error.kind).toBe('timeout');
    });
  });
});
