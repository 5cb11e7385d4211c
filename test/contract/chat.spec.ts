// Contract tests for DESIGN.md 2.1 (chat types), black-box through src/index.ts only.
import { describe, expect, it, jest } from '@jest/globals';
import {
  BaseChatModel,
  Capability,
  ChatModelRoutingResult,
  RoutingChatModel,
  aiMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
  type ChatCallOptions,
  type ChatMessage,
  type ChatModel,
  type ChatModelListener,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamEvent,
} from '../../src/index.js';
import { collect } from './fakes.js';

describe('2.1 message helpers', () => {
  it('systemMessage(text)', () => {
    expect(systemMessage('be brief')).toEqual({ role: 'system', text: 'be brief' });
  });

  it('userMessage(string)', () => {
    const message = userMessage('hello');
    expect(message).toEqual({ role: 'user', content: 'hello' });
    expect(message).not.toHaveProperty('name');
  });

  it('userMessage(parts) keeps the parts', () => {
    const parts = [
      { type: 'text' as const, text: 'see' },
      { type: 'image' as const, url: 'https://example.test/cat.png', mimeType: 'image/png' },
      { type: 'pdf' as const, data: 'JVBERi0=' },
    ];
    expect(userMessage(parts)).toEqual({ role: 'user', content: parts });
  });

  it('aiMessage(text)', () => {
    expect(aiMessage('hi')).toEqual({ role: 'assistant', text: 'hi' });
  });

  it('aiMessage(fields)', () => {
    const toolCalls = [{ id: 'call-1', name: 'lookup', arguments: '{"q":"x"}' }];
    expect(aiMessage({ toolCalls, attributes: { chat_model_route: 'r' } })).toEqual({
      role: 'assistant',
      toolCalls,
      attributes: { chat_model_route: 'r' },
    });
  });

  it('toolResultMessage(id, text) has no toolName key', () => {
    const message = toolResultMessage('call-1', '42');
    expect(message).toEqual({ role: 'tool', toolCallId: 'call-1', text: '42' });
    expect(message).not.toHaveProperty('toolName');
  });

  it('toolResultMessage(id, text, toolName)', () => {
    expect(toolResultMessage('call-1', '42', 'lookup')).toEqual({
      role: 'tool',
      toolCallId: 'call-1',
      toolName: 'lookup',
      text: '42',
    });
  });

  it('messages, requests and responses are plain JSON-serialisable objects', () => {
    const messages: ChatMessage[] = [
      systemMessage('s'),
      userMessage([
        { type: 'text', text: 't' },
        { type: 'audio', data: 'AAA', mimeType: 'audio/wav' },
      ]),
      aiMessage({
        text: 'calling',
        toolCalls: [{ id: 'c', name: 'n', arguments: '{}' }],
        attributes: { chat_model_route: 'r' },
      }),
      toolResultMessage('c', 'r', 'n'),
    ];
    const request: ChatRequest = {
      messages,
      parameters: {
        modelName: 'm',
        temperature: 0.5,
        topP: 0.9,
        maxOutputTokens: 100,
        stopSequences: ['END'],
        tools: [{ name: 'n', description: 'd', parameters: { type: 'object' } }],
        toolChoice: 'auto',
        responseFormat: { type: 'json', jsonSchema: { name: 's', schema: { type: 'object' } } },
      },
    };
    const response: ChatResponse = {
      aiMessage: aiMessage('done'),
      modelName: 'm',
      tokenUsage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
      finishReason: 'stop',
      id: 'r1',
    };
    expect(JSON.parse(JSON.stringify(request))).toEqual(request);
    expect(JSON.parse(JSON.stringify(response))).toEqual(response);
    for (const message of messages) expect(Object.getPrototypeOf(message)).toBe(Object.prototype);
  });
});

describe('2.1 Capability', () => {
  it('is a const object whose RESPONSE_FORMAT_JSON_SCHEMA is its own name', () => {
    expect(Capability.RESPONSE_FORMAT_JSON_SCHEMA).toBe('RESPONSE_FORMAT_JSON_SCHEMA');
    const capability: Capability = Capability.RESPONSE_FORMAT_JSON_SCHEMA;
    expect(capability).toBe('RESPONSE_FORMAT_JSON_SCHEMA');
  });
});

describe('2.1 ChatModel', () => {
  it('a plain object with a chat function is a valid ChatModel (served through RoutingChatModel)', async () => {
    const plain: ChatModel = {
      chat: async (request) => ({
        aiMessage: { role: 'assistant', text: `echo ${request.messages.length}` },
      }),
    };
    const routing = new RoutingChatModel({
      routes: [{ name: 'plain', model: plain }],
      router: () => ChatModelRoutingResult.route('plain'),
      defaultRoute: 'plain',
    });
    const response = await routing.chat({ messages: [userMessage('a')] });
    expect(response.aiMessage.text).toBe('echo 1');
  });
});

// A model built on the project's base class, answering from a script.
class ScriptedModel extends BaseChatModel {
  readonly seen: { request: ChatRequest; options: ChatCallOptions }[] = [];
  constructor(
    listeners: ChatModelListener[],
    private readonly answer: (request: ChatRequest) => Promise<ChatResponse>,
  ) {
    super({ listeners });
  }
  protected doChat(request: ChatRequest, options: ChatCallOptions): Promise<ChatResponse> {
    this.seen.push({ request, options });
    return this.answer(request);
  }
}

function recordingListener() {
  return {
    onRequest: jest.fn<NonNullable<ChatModelListener['onRequest']>>(),
    onResponse: jest.fn<NonNullable<ChatModelListener['onResponse']>>(),
    onError: jest.fn<NonNullable<ChatModelListener['onError']>>(),
  };
}

describe('2.1 ChatModelListener on models built on the base class', () => {
  const request: ChatRequest = { messages: [userMessage('hi')] };
  const response: ChatResponse = { aiMessage: aiMessage('hello'), finishReason: 'stop' };

  it('onRequest and onResponse get the request, the response and the call attributes', async () => {
    const listener = recordingListener();
    const model = new ScriptedModel([listener], async () => response);
    const result = await model.chat(request, {
      attributes: { chat_model_route: 'r', tenant: 't' },
    });

    expect(result).toEqual(response);
    expect(listener.onRequest).toHaveBeenCalledTimes(1);
    expect(listener.onRequest.mock.calls[0]![0]).toMatchObject({
      request,
      attributes: { chat_model_route: 'r', tenant: 't' },
    });
    expect(listener.onResponse).toHaveBeenCalledTimes(1);
    expect(listener.onResponse.mock.calls[0]![0]).toMatchObject({
      request,
      response,
      attributes: { chat_model_route: 'r', tenant: 't' },
    });
    expect(listener.onError).not.toHaveBeenCalled();
  });

  it('onError gets the error and the attributes; the error still propagates', async () => {
    const failure = new Error('provider down');
    const listener = recordingListener();
    const model = new ScriptedModel([listener], async () => {
      throw failure;
    });
    await expect(model.chat(request, { attributes: { k: 'v' } })).rejects.toBe(failure);
    expect(listener.onError).toHaveBeenCalledTimes(1);
    expect(listener.onError.mock.calls[0]![0]).toMatchObject({
      request,
      error: failure,
      attributes: { k: 'v' },
    });
    expect(listener.onResponse).not.toHaveBeenCalled();
  });

  it('without call attributes listeners get an attributes object', async () => {
    const listener = recordingListener();
    const model = new ScriptedModel([listener], async () => response);
    await model.chat(request);
    expect(listener.onRequest.mock.calls[0]![0].attributes).toEqual({});
  });

  it('listeners see the route attribute when the model is served by a RoutingChatModel', async () => {
    const listener = recordingListener();
    const model = new ScriptedModel([listener], async () => response);
    const routing = new RoutingChatModel({
      routes: [{ name: 'base', model }],
      router: () => ChatModelRoutingResult.route('base'),
      defaultRoute: 'base',
    });
    await routing.chat(request, { attributes: { tenant: 't' } });
    expect(listener.onResponse.mock.calls[0]![0].attributes).toEqual({
      tenant: 't',
      chat_model_route: 'base',
    });
  });
});

describe('2.1 ChatStreamEvent', () => {
  it('a base-class model without native streaming ends its stream with exactly one complete', async () => {
    const response: ChatResponse = { aiMessage: aiMessage('whole'), finishReason: 'stop' };
    const model = new ScriptedModel([], async () => response);
    const events: ChatStreamEvent[] = await collect(model.stream({ messages: [userMessage('x')] }));
    expect(events.filter((e) => e.type === 'complete')).toEqual([{ type: 'complete', response }]);
    expect(events.at(-1)).toEqual({ type: 'complete', response });
    expect(
      events
        .filter((e) => e.type === 'text-delta')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('whole');
  });
});
