import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, streamText } from 'ai';
import { AiSdkChatModel, toAiSdkLanguageModel } from 'nest-model-router/ai-sdk';
import {
  ChatModelRoutingResult,
  collectStream,
  FailoverStrategy,
  ModelRouter,
  ProviderException,
  RoutingChatModel,
  userMessage,
  withResilience,
  type ChatStreamEvent,
} from 'nest-model-router/core';
import { FakeProvider } from 'nest-model-router/testing';
import { weatherTool } from '../../support/weather-tool.js';

/**
 * Both directions over real HTTP on 127.0.0.1: `@ai-sdk/openai-compatible` models on the fake
 * provider behind our routes (failover, cooldowns, error kinds), and our routers under `ai@6`'s
 * generateText / streamText with tools.
 */
let fake: FakeProvider;
let aiSdk: (modelId: string) => AiSdkChatModel;

beforeAll(async () => {
  fake = await FakeProvider.start();
  const provider = createOpenAICompatible({
    name: 'fake',
    baseURL: fake.openaiBaseURL,
    apiKey: 'test-key',
    includeUsage: true,
    supportsStructuredOutputs: true,
  });
  aiSdk = (modelId) => new AiSdkChatModel(provider.chatModel(modelId), { name: modelId });
});
beforeEach(() => fake.reset());
afterAll(async () => {
  await fake.close();
});

const group = (...models: string[]) =>
  new ModelRouter({
    routes: models.map((name) => ({ name, model: aiSdk(name) })),
    routingStrategy: new FailoverStrategy({ cooldownMs: 60_000 }),
  });

const stateOf = (router: ModelRouter, model: string) =>
  router.inspectModels().find((status) => status.model === model)?.state;

describe('AiSdkChatModel (@ai-sdk/openai-compatible → the fake provider) behind a route', () => {
  it('answers with text and usage, and a broken model fails over and cools down', async () => {
    const router = group('gpt-a', 'gpt-b');
    const first = await router.chat({ messages: [userMessage('hello')] });
    expect(first.aiMessage.text).toBe('You said: hello (model gpt-a)');
    expect(first.tokenUsage?.totalTokens).toBeGreaterThan(0);
    expect(first.finishReason).toBe('stop');

    fake.setFault('gpt-a', 'fault-500');
    const served = await router.chat({ messages: [userMessage('again')] });
    expect(served.aiMessage.text).toBe('You said: again (model gpt-b)');
    expect(stateOf(router, 'gpt-a')).toBe('cooldown');
    expect(router.inspectModels().find((s) => s.model === 'gpt-a')?.lastError?.message).toMatch(
      /HTTP 500/,
    );
    // cooling down: the next call goes straight to gpt-b
    await router.chat({ messages: [userMessage('third')] });
    expect(fake.requests.count('gpt-a')).toBe(2);
  });

  it('classifies 429 as rate limited (with Retry-After) and fails over', async () => {
    fake.setFault('gpt-c', 'fault-429-retry-after-7');
    const error = await aiSdk('gpt-c')
      .chat({ messages: [userMessage('x')] })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProviderException);
    expect(error).toMatchObject({ kind: 'rate-limited', status: 429, retryAfterMs: 7000 });
    expect((error as Error).message).not.toContain('test-key');

    const router = group('gpt-c', 'gpt-d');
    const served = await router.chat({ messages: [userMessage('x')] });
    expect(served.aiMessage.text).toContain('(model gpt-d)');
  });

  it('a 400 is the caller’s: no failover, and the model stays available', async () => {
    fake.setFault('gpt-e', 'fault-400');
    const router = group('gpt-e', 'gpt-f');
    const error = await router
      .chat({ messages: [userMessage('x')] })
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ kind: 'invalid-request', status: 400 });
    expect(fake.requests.count('gpt-f')).toBe(0);
    expect(stateOf(router, 'gpt-e')).toBe('available');
  });

  it('an abort reaches the provider; a hung model times out and fails over', async () => {
    const controller = new AbortController();
    const reason = new Error('caller left');
    const call = aiSdk('gpt-fault-hang').chat(
      { messages: [userMessage('x')] },
      { signal: controller.signal },
    );
    // abort once the provider holds the request
    for (let turn = 0; turn < 10_000 && fake.requests.count('gpt-fault-hang') === 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(fake.requests.count('gpt-fault-hang')).toBe(1);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);

    const router = new ModelRouter({
      routes: [
        {
          name: 'hung',
          model: withResilience(aiSdk('gpt-fault-hang'), { timeouts: { attemptMs: 100 } }),
        },
        { name: 'ok', model: aiSdk('gpt-ok') },
      ],
      routingStrategy: new FailoverStrategy({ cooldownMs: 60_000 }),
    });
    const served = await router.chat({ messages: [userMessage('x')] });
    expect(served.aiMessage.text).toContain('(model gpt-ok)');
    expect(stateOf(router, 'hung')).toBe('cooldown');
    expect(router.inspectModels().find((s) => s.model === 'hung')?.lastError?.name).toBe(
      'ModelTimeoutException',
    );
  });

  it('streams text, streamed tool arguments and the tool call, with usage', async () => {
    const events: ChatStreamEvent[] = [];
    for await (const event of group('gpt-tools-s').stream({
      messages: [userMessage('weather in Oslo')],
      parameters: {
        tools: [
          {
            name: 'weather',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            },
          },
        ],
      },
    })) {
      events.push(event);
    }
    const deltas = events.filter((event) => event.type === 'tool-call-delta');
    const call = events.find((event) => event.type === 'tool-call');
    const complete = events.at(-1);
    expect(deltas[0]).toMatchObject({ index: 0, name: 'weather' });
    expect(deltas.map((delta) => delta.argumentsDelta).join('')).toBe(call?.toolCall.arguments);
    expect(JSON.parse(call!.toolCall.arguments)).toHaveProperty('city');
    expect(complete).toMatchObject({
      type: 'complete',
      response: { finishReason: 'tool_calls', aiMessage: { toolCalls: [call!.toolCall] } },
    });
    if (complete?.type === 'complete') {
      expect(complete.response.tokenUsage?.totalTokens).toBeGreaterThan(0);
    }

    const text = await collectStream(aiSdk('gpt-text').stream({ messages: [userMessage('hi')] }));
    expect(text.aiMessage.text).toBe('You said: hi (model gpt-text)');
  });

  it('sends a JSON schema and gets an object of it back', async () => {
    const response = await aiSdk('gpt-json').chat({
      messages: [userMessage('a city')],
      parameters: {
        responseFormat: {
          type: 'json',
          jsonSchema: {
            name: 'city',
            schema: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            },
          },
        },
      },
    });
    expect(typeof JSON.parse(response.aiMessage.text!).city).toBe('string');
    expect(fake.requests.last('gpt-json')?.body).toMatchObject({
      response_format: { type: 'json_schema' },
    });
  });
});

const routed = () =>
  toAiSdkLanguageModel(
    new RoutingChatModel({
      routes: [{ name: 'tools', model: group('gpt-tools-broken', 'gpt-tools-ok') }],
      router: () => ChatModelRoutingResult.route('tools'),
      defaultRoute: 'tools',
    }),
    { modelId: 'support' },
  );
const weather = (cities: string[]) => weatherTool(cities);

describe('toAiSdkLanguageModel(a router of AiSdkChatModels) under ai@6', () => {
  it('generateText calls the tool, sends its result back and answers, after a failover', async () => {
    fake.setFault('gpt-tools-broken', 'fault-503');
    const cities: string[] = [];
    const result = await generateText({
      model: routed(),
      prompt: 'Weather in Oslo?',
      tools: { weather: weather(cities) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(cities).toHaveLength(1);
    expect(result.steps).toHaveLength(2);
    expect(result.text).toBe('Tool weather returned: sunny (model gpt-tools-ok)');
    expect(result.response.modelId).toBe('gpt-tools-ok');
    expect(result.totalUsage.totalTokens).toBeGreaterThan(0);
  });

  it('streamText streams the tool input, runs the tool and streams the answer', async () => {
    fake.setFault('gpt-tools-broken', 'fault-503');
    const cities: string[] = [];
    const result = streamText({
      model: routed(),
      prompt: 'Weather in Oslo?',
      tools: { weather: weather(cities) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    const types = new Set<string>();
    let text = '';
    for await (const part of result.fullStream) {
      types.add(part.type);
      if (part.type === 'text-delta') text += part.text;
    }
    expect(cities).toHaveLength(1);
    expect([...types]).toEqual(
      expect.arrayContaining(['tool-input-start', 'tool-input-delta', 'tool-call', 'tool-result']),
    );
    expect(text).toBe('Tool weather returned: sunny (model gpt-tools-ok)');
    expect((await result.totalUsage).totalTokens).toBeGreaterThan(0);
  });
});
