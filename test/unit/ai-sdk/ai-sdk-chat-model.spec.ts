import { describe, expect, it } from '@jest/globals';
import {
  APICallError,
  type LanguageModelV2,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3StreamPart,
  type LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { AiSdkChatModel } from 'nest-model-router/ai-sdk';
import {
  aiMessage,
  collectStream,
  ProviderException,
  systemMessage,
  toolResultMessage,
  userMessage,
  type ChatRequest,
  type ChatStreamEvent,
} from 'nest-model-router/core';

const usage = (input: number, output: number): LanguageModelV3Usage => ({
  inputTokens: { total: input, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: undefined, reasoning: undefined },
});

const generated = (
  fields: Partial<LanguageModelV3GenerateResult> = {},
): LanguageModelV3GenerateResult => ({
  content: [{ type: 'text', text: 'Paris.' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: usage(12, 3),
  warnings: [],
  ...fields,
});

const streamed = (parts: LanguageModelV3StreamPart[]) => ({
  stream: convertArrayToReadableStream(parts),
});

const apiError = (statusCode: number | undefined, body?: unknown, headers = {}) =>
  new APICallError({
    message: `failed with ${statusCode}`,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: body === undefined ? undefined : JSON.stringify(body),
    isRetryable: statusCode === undefined || statusCode >= 429,
  });

const failingWith = (error: unknown) =>
  new MockLanguageModelV3({
    provider: 'mock.chat',
    modelId: 'broken',
    doGenerate: async () => {
      throw error;
    },
    doStream: async () => {
      throw error;
    },
  });

async function caught(promise: Promise<unknown>): Promise<ProviderException> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderException);
  return error as ProviderException;
}

const ask = (error: unknown) =>
  caught(new AiSdkChatModel(failingWith(error)).chat({ messages: [userMessage('x')] }));

const stream = (model: MockLanguageModelV3) =>
  caught(collectStream(new AiSdkChatModel(model).stream({ messages: [userMessage('x')] })));

describe('AiSdkChatModel over the AI SDK’s MockLanguageModelV3', () => {
  it('maps the request to call options and the result to a response', async () => {
    const model = new MockLanguageModelV3({
      modelId: 'mock-1',
      doGenerate: generated({
        content: [
          { type: 'text', text: 'Looking it up.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: '{"q":"x"}' },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        response: { id: 'r-1', modelId: 'mock-1-2025' },
      }),
    });
    const chat = new AiSdkChatModel(model, { name: 'mock' });
    const controller = new AbortController();
    const request: ChatRequest = {
      messages: [
        systemMessage('Be brief.'),
        userMessage('Look x up'),
        aiMessage({ toolCalls: [{ id: 'c0', name: 'lookup', arguments: '{"q":"w"}' }] }),
        toolResultMessage('c0', 'w is a letter'),
        userMessage([
          { type: 'text', text: 'and this' },
          { type: 'image', url: 'https://example.com/a.png' },
        ]),
      ],
      parameters: {
        temperature: 0.2,
        topP: 0.9,
        maxOutputTokens: 100,
        stopSequences: ['END'],
        seed: 7,
        topK: 40,
        presencePenalty: 0.5,
        frequencyPenalty: -0.5,
        tools: [{ name: 'lookup', description: 'Looks up', parameters: { type: 'object' } }],
        toolChoice: { name: 'lookup' },
        responseFormat: {
          type: 'json',
          jsonSchema: { name: 'answer', schema: { type: 'object' } },
        },
      },
    };

    const response = await chat.chat(request, { signal: controller.signal });

    expect(response).toEqual({
      aiMessage: {
        role: 'assistant',
        text: 'Looking it up.',
        toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{"q":"x"}' }],
      },
      modelName: 'mock-1-2025',
      id: 'r-1',
      tokenUsage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
      finishReason: 'tool_calls',
    });
    const [options] = model.doGenerateCalls;
    expect(options).toMatchObject({
      temperature: 0.2,
      topP: 0.9,
      seed: 7,
      topK: 40,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      maxOutputTokens: 100,
      stopSequences: ['END'],
      tools: [
        {
          type: 'function',
          name: 'lookup',
          description: 'Looks up',
          inputSchema: { type: 'object' },
        },
      ],
      toolChoice: { type: 'tool', toolName: 'lookup' },
      responseFormat: { type: 'json', name: 'answer', schema: { type: 'object' } },
    });
    expect(options!.abortSignal).toBe(controller.signal);
    expect(options!.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Look x up' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c0', toolName: 'lookup', input: { q: 'w' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c0',
            toolName: 'lookup',
            output: { type: 'text', value: 'w is a letter' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'and this' },
          { type: 'file', mediaType: 'image/*', data: new URL('https://example.com/a.png') },
        ],
      },
    ]);
    expect(chat.name).toBe('mock');
    expect([...chat.supportedCapabilities()]).toEqual(['RESPONSE_FORMAT_JSON_SCHEMA']);
  });

  it('streams text deltas, streamed tool input as tool-call-delta events, the call, and usage', async () => {
    const model = new MockLanguageModelV3({
      doStream: streamed([
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: 'r-2', modelId: 'mock-stream' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Let me ' },
        { type: 'text-delta', id: 't', delta: 'check.' },
        { type: 'text-end', id: 't' },
        { type: 'tool-input-start', id: 'call-9', toolName: 'weather' },
        { type: 'tool-input-delta', id: 'call-9', delta: '{"city":' },
        { type: 'tool-input-delta', id: 'call-9', delta: '"Oslo"}' },
        { type: 'tool-input-end', id: 'call-9' },
        { type: 'tool-call', toolCallId: 'call-9', toolName: 'weather', input: '{"city":"Oslo"}' },
        {
          type: 'finish',
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: usage(7, 9),
        },
      ]),
    });
    const events: ChatStreamEvent[] = [];
    for await (const event of new AiSdkChatModel(model).stream({ messages: [userMessage('hi')] })) {
      events.push(event);
    }
    const toolCall = { id: 'call-9', name: 'weather', arguments: '{"city":"Oslo"}' };
    expect(events).toEqual([
      { type: 'text-delta', text: 'Let me ' },
      { type: 'text-delta', text: 'check.' },
      {
        type: 'tool-call-delta',
        index: 0,
        id: 'call-9',
        name: 'weather',
        argumentsDelta: '{"city":',
      },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Oslo"}' },
      { type: 'tool-call', toolCall },
      {
        type: 'complete',
        response: {
          aiMessage: { role: 'assistant', text: 'Let me check.', toolCalls: [toolCall] },
          modelName: 'mock-stream',
          id: 'r-2',
          tokenUsage: { inputTokens: 7, outputTokens: 9, totalTokens: 16 },
          finishReason: 'tool_calls',
        },
      },
    ]);
  });

  it('takes a specification v2 model too (flat usage, string finish reasons)', async () => {
    const v2: LanguageModelV2 = {
      specificationVersion: 'v2',
      provider: 'legacy',
      modelId: 'v2-model',
      supportedUrls: {},
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'cut' }],
        finishReason: 'length',
        usage: { inputTokens: 4, outputTokens: 1, totalTokens: 5 },
        warnings: [],
      }),
      doStream: async () => ({
        stream: convertArrayToReadableStream<never>([
          { type: 'text-delta', id: '1', delta: 'hey' } as never,
          {
            type: 'finish',
            finishReason: 'content-filter',
            usage: { inputTokens: 2, outputTokens: 1, totalTokens: 3 },
          } as never,
        ]),
      }),
    };
    const chat = new AiSdkChatModel(v2);
    expect(chat.name).toBe('legacy/v2-model');
    await expect(chat.chat({ messages: [userMessage('x')] })).resolves.toMatchObject({
      aiMessage: { text: 'cut' },
      finishReason: 'length',
      tokenUsage: { inputTokens: 4, outputTokens: 1, totalTokens: 5 },
    });
    await expect(
      collectStream(chat.stream({ messages: [userMessage('x')] })),
    ).resolves.toMatchObject({
      aiMessage: { text: 'hey' },
      finishReason: 'content_filter',
      tokenUsage: { totalTokens: 3 },
    });
  });

  it('classifies provider errors as the built-in providers do', async () => {
    const limited = await ask(
      apiError(
        429,
        { error: { message: 'slow down', type: 'rate_limit_exceeded' } },
        { 'retry-after': '2' },
      ),
    );
    expect(limited).toMatchObject({
      kind: 'rate-limited',
      status: 429,
      retryAfterMs: 2000,
      provider: 'mock.chat',
      model: 'mock.chat/broken',
    });
    expect((await ask(apiError(500))).kind).toBe('transient');
    expect((await ask(apiError(401))).kind).toBe('misconfigured');
    expect((await ask(apiError(400, { error: { message: 'bad field' } }))).kind).toBe(
      'invalid-request',
    );
    const tooLong = await ask(
      apiError(400, { error: { message: 'too long', code: 'context_length_exceeded' } }),
    );
    expect(tooLong).toMatchObject({ kind: 'context-length', code: 'context_length_exceeded' });
    expect((await ask(apiError(undefined))).kind).toBe('transient');
    expect((await ask(Object.assign(new Error('slow'), { name: 'TimeoutError' }))).kind).toBe(
      'timeout',
    );
    expect(
      (await ask(Object.assign(new Error('no'), { name: 'AI_InvalidPromptError' }))).kind,
    ).toBe('invalid-request');
    expect((await ask(new Error('something odd'))).kind).toBe('unknown');
  });

  it('keeps keys out of the messages it reports', async () => {
    const error = await caught(
      new AiSdkChatModel(
        failingWith(
          apiError(401, { error: { message: 'Incorrect API key sk-live-1234567890abcdef' } }),
        ),
      ).chat({
        messages: [userMessage('x')],
      }),
    );
    expect(error.message).not.toContain('sk-live-1234567890abcdef');
    expect(error.message).toContain('[REDACTED]');
  });

  it('classifies errors of a stream: a failed start, an error part, a stream without finish', async () => {
    expect((await stream(failingWith(apiError(503)))).kind).toBe('transient');
    const errorPart = await stream(
      new MockLanguageModelV3({
        doStream: streamed([
          { type: 'text-delta', id: 't', delta: 'par' },
          { type: 'error', error: { type: 'rate_limit_exceeded', message: 'too many' } },
        ]),
      }),
    );
    expect(errorPart).toMatchObject({ kind: 'rate-limited', code: 'rate_limit_exceeded' });
    const plainErrorPart = await stream(
      new MockLanguageModelV3({
        doStream: streamed([{ type: 'error', error: { message: 'boom' } }]),
      }),
    );
    expect(plainErrorPart.kind).toBe('transient');
    const truncated = await stream(
      new MockLanguageModelV3({
        doStream: streamed([{ type: 'text-delta', id: 't', delta: 'par' }]),
      }),
    );
    expect(truncated).toMatchObject({ kind: 'transient', code: 'stream_truncated' });
  });

  it('gives the caller its own abort reason, and passes the signal down', async () => {
    const controller = new AbortController();
    const reason = new Error('caller left');
    let seen: AbortSignal | undefined;
    const model = new MockLanguageModelV3({
      doGenerate: (options) => {
        seen = options.abortSignal;
        return new Promise((_resolve, reject) => {
          options.abortSignal!.addEventListener('abort', () =>
            reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
          );
        });
      },
    });
    const call = new AiSdkChatModel(model).chat(
      { messages: [userMessage('x')] },
      { signal: controller.signal },
    );
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(seen).toBe(controller.signal);
  });

  it('a request it cannot map is the caller’s error, not the model’s', async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated() });
    const error = await new AiSdkChatModel(model)
      .chat({ messages: [userMessage([{ type: 'image', url: 'not a url' }])] })
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ kind: 'invalid-request', name: 'InvalidChatRequestException' });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('refuses what is not a language model, naming the option', () => {
    expect(() => new AiSdkChatModel({} as never)).toThrow(
      /languageModel must be an AI SDK language model/,
    );
    expect(() => new AiSdkChatModel(new MockLanguageModelV3(), { name: '' })).toThrow(
      /name must be/,
    );
  });
});
