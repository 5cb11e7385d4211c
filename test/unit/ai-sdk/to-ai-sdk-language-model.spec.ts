import { describe, expect, it } from '@jest/globals';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText, jsonSchema, stepCountIs, streamText, Output } from 'ai';
import { toAiSdkLanguageModel } from 'nest-model-router/ai-sdk';
import {
  ChatModelRoutingResult,
  FailoverStrategy,
  ModelRouter,
  RoutingChatModel,
  type ChatCallOptions,
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamEvent,
} from 'nest-model-router/core';
import { weatherTool } from '../../support/weather-tool.js';

const weatherCall = { id: 'call-1', name: 'weather', arguments: '{"city":"Oslo"}' };

/** Asks for the weather tool first; once it has the tool's result, answers with it. */
class WeatherModel implements ChatModel {
  readonly requests: ChatRequest[] = [];
  readonly signals: Array<AbortSignal | undefined> = [];

  async chat(request: ChatRequest, options?: ChatCallOptions): Promise<ChatResponse> {
    this.requests.push(request);
    this.signals.push(options?.signal);
    const last = request.messages[request.messages.length - 1]!;
    if (last.role === 'tool') {
      return {
        aiMessage: { role: 'assistant', text: `In Oslo: ${last.text}` },
        modelName: 'weather-model',
        tokenUsage: { inputTokens: 20, outputTokens: 4, totalTokens: 24 },
        finishReason: 'stop',
      };
    }
    return {
      aiMessage: { role: 'assistant', toolCalls: [weatherCall] },
      modelName: 'weather-model',
      tokenUsage: { inputTokens: 10, outputTokens: 6, totalTokens: 16 },
      finishReason: 'tool_calls',
    };
  }

  async *stream(request: ChatRequest, options?: ChatCallOptions): AsyncGenerator<ChatStreamEvent> {
    const response = await this.chat(request, options);
    if (response.aiMessage.text) {
      for (const word of response.aiMessage.text.split(/(?<= )/)) {
        yield { type: 'text-delta', text: word };
      }
    }
    for (const [index, call] of (response.aiMessage.toolCalls ?? []).entries()) {
      yield {
        type: 'tool-call-delta',
        index,
        id: call.id,
        name: call.name,
        argumentsDelta: '{"city":',
      };
      yield { type: 'tool-call-delta', index, argumentsDelta: '"Oslo"}' };
      yield { type: 'tool-call', toolCall: call };
    }
    yield { type: 'complete', response };
  }
}

const broken: ChatModel = {
  chat: async () => {
    throw new Error('down');
  },
};

/** A RoutingChatModel over a failover group whose first model is broken. */
function routed(model: ChatModel): RoutingChatModel {
  return new RoutingChatModel({
    routes: [
      {
        name: 'weather',
        model: new ModelRouter({
          routes: [
            { name: 'broken', model: broken },
            { name: 'weather', model },
          ],
          routingStrategy: new FailoverStrategy(),
        }),
      },
    ],
    router: () => ChatModelRoutingResult.route('weather'),
    defaultRoute: 'weather',
  });
}

const weather21 = (cities: string[]) => weatherTool(cities, 'sunny, 21 °C');

describe('toAiSdkLanguageModel with ai@6', () => {
  it('generateText runs a tool and a second step through a routed model', async () => {
    const model = new WeatherModel();
    const cities: string[] = [];
    const result = await generateText({
      model: toAiSdkLanguageModel(routed(model), { modelId: 'support' }),
      system: 'Be brief.',
      prompt: 'Weather in Oslo?',
      tools: { weather: weather21(cities) },
      stopWhen: stepCountIs(3),
      temperature: 0.3,
      seed: 11,
      topK: 5,
      frequencyPenalty: 0.25,
      maxRetries: 0,
    });

    expect(cities).toEqual(['Oslo']);
    expect(result.text).toBe('In Oslo: sunny, 21 °C');
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.finishReason).toBe('tool-calls');
    expect(result.finishReason).toBe('stop');
    expect(result.totalUsage).toMatchObject({ inputTokens: 30, outputTokens: 10, totalTokens: 40 });
    expect(result.response.modelId).toBe('weather-model');
    // the second request carries the call and its result, as our messages
    expect(model.requests[1]!.messages).toEqual([
      { role: 'system', text: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', toolCalls: [weatherCall] },
      { role: 'tool', toolCallId: 'call-1', toolName: 'weather', text: 'sunny, 21 °C' },
    ]);
    expect(model.requests[0]!.parameters).toMatchObject({
      temperature: 0.3,
      seed: 11,
      topK: 5,
      frequencyPenalty: 0.25,
      toolChoice: 'auto',
      tools: [{ name: 'weather', description: 'The weather in a city' }],
    });
  });

  it('streamText streams tool input, runs the tool and streams the answer', async () => {
    const cities: string[] = [];
    const result = streamText({
      model: toAiSdkLanguageModel(routed(new WeatherModel())),
      prompt: 'Weather in Oslo?',
      tools: { weather: weather21(cities) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    const parts: string[] = [];
    const inputDeltas: string[] = [];
    for await (const part of result.fullStream) {
      parts.push(part.type);
      if (part.type === 'tool-input-delta') inputDeltas.push(part.delta);
    }

    expect(cities).toEqual(['Oslo']);
    expect(inputDeltas).toEqual(['{"city":', '"Oslo"}']);
    expect(parts).toEqual(
      expect.arrayContaining(['tool-input-start', 'tool-input-end', 'tool-call', 'tool-result']),
    );
    // one text-delta per word the model streamed
    expect(parts.filter((type) => type === 'text-delta')).toHaveLength(5);
    expect(await result.text).toBe('In Oslo: sunny, 21 °C');
    expect(await result.totalUsage).toMatchObject({ inputTokens: 30, outputTokens: 10 });
    expect(await result.finishReason).toBe('stop');
  });

  it('asks for JSON with the schema of an Output.object', async () => {
    const seen: ChatRequest[] = [];
    const json: ChatModel = {
      chat: async (request) => {
        seen.push(request);
        return { aiMessage: { role: 'assistant', text: '{"city":"Oslo"}' }, finishReason: 'stop' };
      },
    };
    const result = await generateText({
      model: toAiSdkLanguageModel(json),
      prompt: 'Which city?',
      output: Output.object({
        schema: jsonSchema<{ city: string }>({
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        }),
      }),
    });
    expect(result.output).toEqual({ city: 'Oslo' });
    expect(seen[0]!.parameters?.responseFormat).toMatchObject({
      type: 'json',
      jsonSchema: { schema: { type: 'object', required: ['city'] } },
    });
  });

  it('passes the abort signal down to the ChatModel', async () => {
    const controller = new AbortController();
    const reason = new Error('user left');
    let called!: () => void;
    const calling = new Promise<void>((resolve) => (called = resolve));
    let seen: AbortSignal | undefined;
    const generating = generateText({
      model: toAiSdkLanguageModel({
        chat: (_request, options) =>
          new Promise((_resolve, reject) => {
            seen = options?.signal;
            options?.signal?.addEventListener('abort', () => reject(options.signal!.reason));
            called();
          }),
      }),
      prompt: 'x',
      abortSignal: controller.signal,
      maxRetries: 0,
    });
    await calling;
    controller.abort(reason);
    await expect(generating).rejects.toBe(reason);
    expect(seen?.aborted).toBe(true);
  });

  it('stops the ChatModel’s stream when the consumer stops reading', async () => {
    let finished = false;
    const endless: ChatModel = {
      chat: async () => ({ aiMessage: { role: 'assistant', text: '' } }),
      async *stream() {
        try {
          for (let i = 0; ; i++) yield { type: 'text-delta', text: `${i} ` };
        } finally {
          finished = true;
        }
      },
    };
    // the package's shape of a v3 model is the AI SDK's LanguageModelV3
    const language: LanguageModelV3 = toAiSdkLanguageModel(endless);
    const { stream } = await language.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
    });
    const reader = stream.getReader();
    const first = [await reader.read(), await reader.read(), await reader.read()];
    expect(first.map((read) => read.value?.type)).toEqual([
      'stream-start',
      'text-start',
      'text-delta',
    ]);
    await reader.cancel();
    expect(finished).toBe(true);
  });

  it('rejects doStream when the model fails before its first event', async () => {
    const language = toAiSdkLanguageModel(broken);
    await expect(
      language.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }),
    ).rejects.toThrow('down');
  });
});
