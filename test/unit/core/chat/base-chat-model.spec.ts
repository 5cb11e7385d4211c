import { describe, expect, it, jest } from '@jest/globals';
import {
  BaseChatModel,
  type BaseChatModelOptions,
} from '../../../../src/core/chat/base-chat-model.js';
import type {
  ChatCallOptions,
  ChatModelListener,
  ChatStreamEvent,
} from '../../../../src/core/chat/chat-model.js';
import { Capability } from '../../../../src/core/chat/capability.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { collectStream, streamModel } from '../../../../src/core/chat/stream.js';

class EchoModel extends BaseChatModel {
  readonly seen: ChatRequest[] = [];
  constructor(
    options: BaseChatModelOptions = {},
    private readonly behaviour: (request: ChatRequest) => Promise<ChatResponse> = async (r) => ({
      aiMessage: { role: 'assistant', text: `echo ${r.messages.length}` },
    }),
  ) {
    super(options);
  }
  protected doChat(request: ChatRequest, _options: ChatCallOptions): Promise<ChatResponse> {
    this.seen.push(request);
    return this.behaviour(request);
  }
}

const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };

describe('BaseChatModel', () => {
  it('merges default request parameters under the request parameters', async () => {
    const model = new EchoModel({
      defaultRequestParameters: { temperature: 0, maxOutputTokens: 5 },
    });
    await model.chat({ ...request, parameters: { temperature: 1 } });
    expect(model.seen[0]!.parameters).toEqual({ temperature: 1, maxOutputTokens: 5 });
    expect(model.defaultRequestParameters()).toEqual({ temperature: 0, maxOutputTokens: 5 });
  });

  it('calls listeners with the attributes of the call', async () => {
    const calls: string[] = [];
    const listener: ChatModelListener = {
      onRequest: (c) => calls.push(`request:${String(c.attributes.tenant)}`),
      onResponse: (c) => calls.push(`response:${c.response?.aiMessage.text}`),
    };
    const model = new EchoModel({ listeners: [listener] });
    await model.chat(request, { attributes: { tenant: 'acme' } });
    expect(calls).toEqual(['request:acme', 'response:echo 1']);
  });

  it('calls onError and rethrows the same error; a throwing listener changes nothing', async () => {
    const failure = new Error('boom');
    const onError = jest.fn();
    const model = new EchoModel(
      {
        listeners: [
          {
            onRequest: () => {
              throw new Error('listener bug');
            },
          },
          { onError },
        ],
      },
      () => Promise.reject(failure),
    );
    await expect(model.chat(request)).rejects.toBe(failure);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ error: failure }));
  });

  it('rejects with the abort reason before calling the provider when already aborted', async () => {
    const model = new EchoModel();
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(model.chat(request, { signal: controller.signal })).rejects.toBe(reason);
    expect(model.seen).toHaveLength(0);
  });

  it('rejects with the abort reason when aborted during the call', async () => {
    let release!: () => void;
    const model = new EchoModel(
      {},
      () =>
        new Promise((resolve) => {
          release = () => resolve({ aiMessage: { role: 'assistant', text: 'late' } });
        }),
    );
    const controller = new AbortController();
    const pending = model.chat(request, { signal: controller.signal });
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    release();
  });

  it('streams a non-streaming provider as one delta and one complete', async () => {
    const model = new EchoModel();
    const events: ChatStreamEvent[] = [];
    for await (const event of model.stream(request)) events.push(event);
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'complete']);
    expect(events[0]).toEqual({ type: 'text-delta', text: 'echo 1' });
  });

  it('declares the configured capabilities', () => {
    const model = new EchoModel({ capabilities: [Capability.RESPONSE_FORMAT_JSON_SCHEMA] });
    expect(model.supportedCapabilities().has(Capability.RESPONSE_FORMAT_JSON_SCHEMA)).toBe(true);
  });
});

describe('stream helpers', () => {
  it('streamModel serves a chat-only model by chat', async () => {
    const model = {
      chat: async () => ({
        aiMessage: {
          role: 'assistant' as const,
          text: 'hi',
          toolCalls: [{ id: '1', name: 't', arguments: '{}' }],
        },
      }),
    };
    const events: ChatStreamEvent[] = [];
    for await (const e of streamModel(model, request)) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'tool-call', 'complete']);
  });

  it('collectStream fails on a stream without complete', async () => {
    await expect(collectStream(truncated())).rejects.toThrow('without a complete event');
  });
});

/** A stream that ends without its `complete` event. */
async function* truncated(): AsyncGenerator<ChatStreamEvent> {
  yield { type: 'text-delta', text: 'partial' };
}
