import type {
  ChatCallOptions,
  ChatRequest,
  ChatResponse,
  ChatStreamEvent,
} from '../../src/index.js';

/** The signatures of a ChatModel's `chat` and `stream`, for `jest.fn<ChatFn>()` fakes. */
export type ChatFn = (request: ChatRequest, options?: ChatCallOptions) => Promise<ChatResponse>;
export type StreamFn = (
  request: ChatRequest,
  options?: ChatCallOptions,
) => AsyncIterable<ChatStreamEvent>;
