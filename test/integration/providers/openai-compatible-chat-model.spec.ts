import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Capability } from '../../../src/core/chat/capability.js';
import type { ChatModelListenerContext } from '../../../src/core/chat/chat-model.js';
import {
  aiMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
} from '../../../src/core/chat/messages.js';
import type { RoutingEvent } from '../../../src/core/observability/routing-event.js';
import { ROUTE_ATTRIBUTE } from '../../../src/core/chat/call-attributes.js';
import { firstTokenTopLogprobs, logprobsOf } from '../../../src/core/chat/logprobs.js';
import {
  OpenAiCompatibleChatModel,
  type OpenAiCompatibleChatModelOptions,
} from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { completes, drain, rejectionOf, textOf } from './provider-test-kit.js';

const KEY = 'sk-test-openai-0123456789abcdef';

describe('OpenAiCompatibleChatModel against the fake provider', () => {
  let provider: FakeProvider;
  const model = (name: string, options: Partial<OpenAiCompatibleChatModelOptions> = {}) =>
    new OpenAiCompatibleChatModel({
      baseURL: provider.openaiBaseURL,
      apiKey: KEY,
      model: name,
      ...options,
    });

  beforeAll(async () => {
    provider = await FakeProvider.start();
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.reset());

  describe('chat', () => {
    it('answers with text, the answering model, usage, finish reason and id', async () => {
      const response = await model('gpt-fake').chat({ messages: [userMessage('hello world')] });
      expect(response.aiMessage).toEqual({
        role: 'assistant',
        text: 'You said: hello world (model gpt-fake)',
      });
      expect(response.modelName).toBe('gpt-fake');
      expect(response.finishReason).toBe('stop');
      expect(response.tokenUsage).toEqual({ inputTokens: 2, outputTokens: 6, totalTokens: 8 });
      expect(response.id).toMatch(/^chatcmpl-/);
      expect(provider.requests.last()!.headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('maps every message kind: system, user with an image, assistant tool calls, tool results', async () => {
      await model('gpt-fake').chat({
        messages: [
          systemMessage('be brief'),
          userMessage([
            { type: 'text', text: 'what is this?' },
            { type: 'image', url: 'https://example.com/cat.png' },
            { type: 'image', data: 'aGVsbG8=', mimeType: 'image/jpeg' },
          ]),
          aiMessage({ toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"cat"}' }] }),
          toolResultMessage('call_1', 'a cat', 'lookup'),
        ],
      });
      const body = provider.requests.last()!.body as { messages: unknown[] };
      expect(body.messages).toEqual([
        { role: 'system', content: 'be brief' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,aGVsbG8=' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'lookup', arguments: '{"q":"cat"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'a cat' },
      ]);
    });

    it('rejects a part the API cannot carry, naming the field, before sending anything', async () => {
      const error = await rejectionOf(
        model('gpt-fake').chat({
          messages: [userMessage([{ type: 'video', url: 'https://x/v.mp4' }])],
        }),
      );
      expect(error).toMatchObject({ name: 'ProviderException', kind: 'invalid-request' });
      expect((error as Error).message).toContain('messages[0].content[0]');
      expect(provider.requests.count()).toBe(0);
    });

    it('sends the parameters; max tokens truncate with finish reason length, stop sequences cut', async () => {
      const truncated = await model('gpt-fake').chat({
        messages: [userMessage('one two three four')],
        parameters: { temperature: 0.2, topP: 0.9, maxOutputTokens: 3 },
      });
      expect(provider.requests.last()!.body).toMatchObject({
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 3,
      });
      expect(truncated).toMatchObject({
        finishReason: 'length',
        aiMessage: { text: 'You said: one' },
      });
      const stopped = await model('gpt-fake', { maxTokensParameter: 'max_completion_tokens' }).chat(
        {
          messages: [userMessage('one two three')],
          parameters: { stopSequences: [' two'], maxOutputTokens: 50 },
        },
      );
      expect(provider.requests.last()!.body).toMatchObject({
        stop: [' two'],
        max_completion_tokens: 50,
      });
      expect(stopped).toMatchObject({ finishReason: 'stop', aiMessage: { text: 'You said: one' } });
    });

    it('merges default parameters; modelName picks another model only with allowModelOverride', async () => {
      const response = await model('gpt-fake', {
        defaultRequestParameters: { temperature: 0.7 },
        allowModelOverride: true,
      }).chat({
        messages: [userMessage('hi')],
        parameters: { modelName: 'gpt-other' },
      });
      expect(provider.requests.last()!.body).toMatchObject({
        model: 'gpt-other',
        temperature: 0.7,
      });
      expect(response.modelName).toBe('gpt-other');
    });

    it('ignores a request’s modelName by default: the model id is configuration (issue 12)', async () => {
      const response = await model('gpt-fake').chat({
        messages: [userMessage('hi')],
        parameters: { modelName: 'gpt-4-32k-fault-404' },
      });
      expect(provider.requests.last()!.body).toMatchObject({ model: 'gpt-fake' });
      expect(response.modelName).toBe('gpt-fake');
    });

    it('calls a 404 for a model the request chose the caller’s error, not the model’s (issue 12)', async () => {
      const failure = await model('gpt-fake', { allowModelOverride: true })
        .chat({ messages: [userMessage('hi')], parameters: { modelName: 'gpt-x-fault-404' } })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ kind: 'invalid-request', status: 404 });
      const configured = await model('gpt-y-fault-404')
        .chat({ messages: [userMessage('hi')] })
        .catch((error: unknown) => error);
      expect(configured).toMatchObject({ kind: 'misconfigured', status: 404 });
    });

    it('sends configured headers and extra body fields', async () => {
      await model('gpt-fake', { headers: { 'x-tenant': 'acme' }, extraBody: { seed: 7 } }).chat({
        messages: [userMessage('hi')],
      });
      expect(provider.requests.last()!.headers['x-tenant']).toBe('acme');
      expect(provider.requests.last()!.body).toMatchObject({ seed: 7 });
    });

    it('round-trips tools: a tool call, then the tool result turns into an answer', async () => {
      const tools = [
        {
          name: 'weather',
          description: 'Weather in a city',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
          },
        },
      ];
      const chatModel = model('gpt-tools');
      const first = await chatModel.chat({
        messages: [userMessage('Paris')],
        parameters: { tools, toolChoice: 'auto' },
      });
      expect(provider.requests.last()!.body).toMatchObject({
        tool_choice: 'auto',
        tools: [
          { type: 'function', function: { name: 'weather', description: 'Weather in a city' } },
        ],
      });
      expect(first.finishReason).toBe('tool_calls');
      const call = first.aiMessage.toolCalls![0]!;
      expect(call).toMatchObject({ name: 'weather', arguments: '{"city":"Paris"}' });
      const second = await chatModel.chat({
        messages: [
          userMessage('Paris'),
          first.aiMessage,
          toolResultMessage(call.id, 'sunny', 'weather'),
        ],
        parameters: { tools },
      });
      expect(second.finishReason).toBe('stop');
      expect(second.aiMessage.text).toBe('Tool weather returned: sunny (model gpt-tools)');
    });

    it('requests a JSON schema and gets JSON back; plain JSON mode asks for json_object', async () => {
      const schema = {
        type: 'object',
        properties: { route: { type: 'string', enum: ['billing', 'tech'] } },
        required: ['route'],
        additionalProperties: false,
      };
      const chatModel = model('gpt-fake', { strictJsonSchema: true });
      const response = await chatModel.chat({
        messages: [userMessage('classify')],
        parameters: { responseFormat: { type: 'json', jsonSchema: { name: 'routing', schema } } },
      });
      expect(provider.requests.last()!.body).toMatchObject({
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'routing', schema, strict: true },
        },
      });
      expect(JSON.parse(response.aiMessage.text!)).toEqual({ route: 'billing' });
      await chatModel.chat({
        messages: [userMessage('x')],
        parameters: { responseFormat: { type: 'json' } },
      });
      expect(provider.requests.last()!.body).toMatchObject({
        response_format: { type: 'json_object' },
      });
    });

    it('reports the first token top logprobs, so a judge can turn them into probabilities', async () => {
      provider.setAnswer('judge', {
        text: 'B',
        firstTokenTopLogprobs: [
          { token: 'B', logprob: Math.log(0.75) },
          { token: 'A', logprob: Math.log(0.2) },
        ],
      });
      const judge = model('judge', { topLogprobs: 2 });
      const response = await judge.chat({ messages: [userMessage('A or B?')] });
      expect(provider.requests.last()!.body).toMatchObject({ logprobs: true, top_logprobs: 2 });
      const top = firstTokenTopLogprobs(response)!;
      expect(top.map((t) => t.token)).toEqual(['B', 'A']);
      expect(Math.exp(top[0]!.logprob)).toBeCloseTo(0.75);
      const streamed = await drain(judge.stream({ messages: [userMessage('A or B?')] }));
      const complete = streamed.events.at(-1)!;
      expect(complete.type === 'complete' && firstTokenTopLogprobs(complete.response)).toEqual(top);
      expect(
        logprobsOf(await model('gpt-fake').chat({ messages: [userMessage('x')] })),
      ).toBeUndefined();
    });

    it('reports a content filter finish as a response, not an error', async () => {
      const response = await model('gpt-fault-content-filter-finish').chat({
        messages: [userMessage('tell me')],
      });
      expect(response.finishReason).toBe('content_filter');
      expect(response.aiMessage.text).toBe('You said:');
    });

    it('calls listeners with the call attributes', async () => {
      const seen: Array<[string, ChatModelListenerContext]> = [];
      const chatModel = model('gpt-fake', {
        listeners: [
          {
            onRequest: (c) => seen.push(['request', c]),
            onResponse: (c) => seen.push(['response', c]),
          },
        ],
      });
      await chatModel.chat({ messages: [userMessage('hi')] }, { attributes: { tenant: 't1' } });
      expect(seen.map(([hook, c]) => [hook, c.attributes.tenant])).toEqual([
        ['request', 't1'],
        ['response', 't1'],
      ]);
    });
  });

  describe('capabilities and prefill', () => {
    it('declares JSON schema support, and assistant prefill only when configured', () => {
      expect([...model('a').supportedCapabilities()]).toEqual([
        Capability.RESPONSE_FORMAT_JSON_SCHEMA,
      ]);
      expect(
        model('a', { assistantPrefill: true })
          .supportedCapabilities()
          .has(Capability.ASSISTANT_PREFILL),
      ).toBe(true);
      expect([...model('a', { capabilities: [] }).supportedCapabilities()]).toEqual([]);
    });

    it('continues a trailing assistant message when the server supports prefill', async () => {
      const response = await model('vllm-fake', { assistantPrefill: true }).chat({
        messages: [userMessage('hello world'), aiMessage('You said: hello')],
      });
      expect(response.aiMessage.text).toBe(' world (model vllm-fake)');
    });
  });

  describe('stream', () => {
    it('streams text deltas and ends with exactly one complete carrying usage', async () => {
      const { events, error } = await drain(
        model('gpt-fake').stream({ messages: [userMessage('hello world')] }),
      );
      expect(error).toBeUndefined();
      expect(provider.requests.last()!.body).toMatchObject({
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(events.filter((e) => e.type === 'text-delta').length).toBeGreaterThan(1);
      expect(textOf(events)).toBe('You said: hello world (model gpt-fake)');
      expect(completes(events)).toBe(1);
      const last = events.at(-1)!;
      expect(last.type).toBe('complete');
      expect(last.type === 'complete' && last.response).toMatchObject({
        aiMessage: { text: 'You said: hello world (model gpt-fake)' },
        finishReason: 'stop',
        tokenUsage: { inputTokens: 2, outputTokens: 6, totalTokens: 8 },
        modelName: 'gpt-fake',
      });
    });

    it('assembles parallel tool calls from their fragments', async () => {
      const tools = [
        {
          name: 'weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { name: 'time', parameters: { type: 'object', properties: { zone: { type: 'string' } } } },
      ];
      const { events } = await drain(
        model('gpt-parallel-tools').stream({
          messages: [userMessage('Oslo')],
          parameters: { tools },
        }),
      );
      const calls = events.flatMap((e) => (e.type === 'tool-call' ? [e.toolCall] : []));
      expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
        ['weather', { city: 'Oslo' }],
        ['time', { zone: 'Oslo' }],
      ]);
      expect(calls.every((c) => c.id.startsWith('call_'))).toBe(true);
      const last = events.at(-1)!;
      expect(last.type === 'complete' && last.response.aiMessage.toolCalls).toEqual(calls);
      expect(last.type === 'complete' && last.response.finishReason).toBe('tool_calls');
    });

    it('completes a stream that has a finish reason but no [DONE], with usage', async () => {
      const { events, error } = await drain(
        model('gpt-fault-no-done').stream({ messages: [userMessage('hi')] }),
      );
      expect(error).toBeUndefined();
      const last = events.at(-1)!;
      expect(last.type === 'complete' && last.response).toMatchObject({
        finishReason: 'stop',
        tokenUsage: { inputTokens: 1, outputTokens: 5, totalTokens: 6 },
      });
    });

    it('without usage requested, completes at the finish reason', async () => {
      const { events, error } = await drain(
        model('gpt-fault-no-done-open', { streamUsage: false }).stream({
          messages: [userMessage('hi')],
        }),
      );
      expect(error).toBeUndefined();
      expect(provider.requests.last()!.body).not.toHaveProperty('stream_options');
      const last = events.at(-1)!;
      expect(last.type === 'complete' && last.response.finishReason).toBe('stop');
      // no usage came: it is estimated (for budgets and limits), and says so
      expect(last.type === 'complete' && last.response.tokenUsage?.estimated).toBe(true);
    });

    it('completes at once when finish reason and usage are in, even if the connection stays open', async () => {
      const { events, error } = await drain(
        model('gpt-fault-no-done-open').stream({ messages: [userMessage('hi')] }),
      );
      expect(error).toBeUndefined();
      expect(completes(events)).toBe(1);
    });

    it('throws on a stream cut before the finish reason, and never completes', async () => {
      const { events, error } = await drain(
        model('gpt-fault-cut-after-3').stream({ messages: [userMessage('hello world')] }),
      );
      expect(textOf(events)).toBe('You said: hello');
      expect(completes(events)).toBe(0);
      expect(error).toMatchObject({
        name: 'ProviderException',
        kind: 'transient',
        provider: 'openai',
      });
    });

    it('maps an error event inside the stream', async () => {
      const { events, error } = await drain(
        model('gpt-fault-error-after-2').stream({ messages: [userMessage('hello')] }),
      );
      expect(completes(events)).toBe(0);
      expect(error).toMatchObject({
        name: 'ProviderException',
        kind: 'transient',
        code: 'server_error',
      });
      expect((error as Error).message).toContain('mid-stream');
    });

    it('stops at the caller abort mid-stream, rethrowing the caller reason', async () => {
      const controller = new AbortController();
      const reason = new Error('caller gave up');
      const events: string[] = [];
      const error = await rejectionOf(
        (async () => {
          for await (const event of model('gpt-fault-stall-after-2').stream(
            { messages: [userMessage('hello world')] },
            { signal: controller.signal },
          )) {
            if (event.type === 'text-delta') events.push(event.text);
            if (events.length === 2) controller.abort(reason);
          }
        })(),
      );
      expect(error).toBe(reason);
      expect(events).toEqual(['You', ' said:']);
    });

    it('stops a stalled stream when the caller aborts while it waits for the next chunk', async () => {
      const controller = new AbortController();
      const reason = new Error('deadline');
      const stream = model('gpt-fault-stall-after-1').stream(
        { messages: [userMessage('hello')] },
        { signal: controller.signal },
      );
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'You' });
      const pending = iterator.next();
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
    });

    it("fails on a malformed chunk by default ('fail'), never passing it on as text", async () => {
      const { events, error } = await drain(
        model('gpt-fault-malformed-chunk').stream({ messages: [userMessage('hi')] }),
      );
      expect(error).toMatchObject({ kind: 'transient', code: 'malformed_stream_chunk' });
      expect(textOf(events)).not.toContain('MALFORMED');
      expect(completes(events)).toBe(0);
    });

    it("skips a malformed chunk with 'skip', telling the observer, and completes the answer", async () => {
      const observed: RoutingEvent[] = [];
      const { events, error } = await drain(
        model('gpt-fault-malformed-chunk', { malformedChunks: 'skip' }).stream(
          { messages: [userMessage('hello world')] },
          { observer: (event) => observed.push(event), attributes: { [ROUTE_ATTRIBUTE]: 'chat' } },
        ),
      );
      expect(error).toBeUndefined();
      expect(textOf(events)).toBe('You said: hello world (model gpt-fault-malformed-chunk)');
      expect(completes(events)).toBe(1);
      expect(observed).toEqual([
        {
          type: 'stream-chunk-skipped',
          route: 'chat',
          model: 'gpt-fault-malformed-chunk',
          reason: expect.stringContaining('not valid JSON'),
        },
      ]);
    });
  });
});
