import { jest } from '@jest/globals';
import type { Capability } from '../../../../src/core/chat/capability.js';
import type { ChatCallOptions, ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import type { ChatModelRouterFunction } from '../../../../src/core/routing/chat-model-router.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';

export type ChatFn = (request: ChatRequest, options?: ChatCallOptions) => Promise<ChatResponse>;
export type StreamFn = (
  request: ChatRequest,
  options?: ChatCallOptions,
) => AsyncIterable<ChatStreamEvent>;

export interface FakeModel {
  chat: jest.Mock<ChatFn>;
  supportedCapabilities?: () => ReadonlySet<Capability>;
}

/** A plain-object ChatModel answering `text`, optionally declaring capabilities. */
export function fakeModel(text: string, capabilities?: Capability[]): FakeModel {
  const model: FakeModel = {
    chat: jest.fn<ChatFn>(async () => ({
      aiMessage: { role: 'assistant', text },
      modelName: `${text}-model`,
    })),
  };
  if (capabilities) model.supportedCapabilities = () => new Set(capabilities);
  return model;
}

/** A router that always answers `ChatModelRoutingResult.route(name)`. */
export function routeTo(name: string): jest.Mock<ChatModelRouterFunction> {
  return jest.fn<ChatModelRouterFunction>(() => ChatModelRoutingResult.route(name));
}

export function deferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
