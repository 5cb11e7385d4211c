// Fakes for the contract tests: plain objects and bare functions, as an external user would write.
import { jest } from '@jest/globals';
import type {
  Capability,
  ChatCallOptions,
  ChatModel,
  ChatModelRouter,
  ChatModelRoutingRequest,
  ChatModelRoutingResult,
  ChatRequest,
  ChatResponse,
  ChatStreamEvent,
} from '../../src/index.js';

export type ChatFn = (request: ChatRequest, options?: ChatCallOptions) => Promise<ChatResponse>;
export type StreamFn = (
  request: ChatRequest,
  options?: ChatCallOptions,
) => AsyncIterable<ChatStreamEvent>;
export type RouterFn = (
  request: ChatModelRoutingRequest,
) => ChatModelRoutingResult | Promise<ChatModelRoutingResult>;

export interface FakeModel extends ChatModel {
  chat: jest.Mock<ChatFn>;
}

/** A plain-object chat model answering `text`, optionally declaring capabilities. */
export function fakeModel(text = 'x', capabilities?: Capability[]): FakeModel {
  const model: FakeModel = {
    chat: jest.fn<ChatFn>(async () => ({ aiMessage: { role: 'assistant', text } })),
  };
  if (capabilities) model.supportedCapabilities = () => new Set(capabilities);
  return model;
}

/** A plain-object chat model whose `chat` rejects with `error`. */
export function failingModel(error: unknown): FakeModel {
  return {
    chat: jest.fn<ChatFn>(async () => {
      throw error;
    }),
  };
}

/** A bare-function router as a jest mock. */
export function routerFn(answer: RouterFn): jest.Mock<RouterFn> {
  return jest.fn<RouterFn>(answer);
}

/** A router object whose `route` is a mock and whose `validate` is a mock. */
export function routerObject(answer: RouterFn): ChatModelRouter & {
  route: jest.Mock<RouterFn>;
  validate: jest.Mock<NonNullable<ChatModelRouter['validate']>>;
} {
  return {
    route: jest.fn<RouterFn>(answer),
    validate: jest.fn<NonNullable<ChatModelRouter['validate']>>(),
  };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Collects every event of a stream. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const events: T[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

/** Lets pending promise callbacks run (no timers involved). */
export async function flushMicrotasks(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await Promise.resolve();
}
