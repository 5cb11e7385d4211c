import { jest } from '@jest/globals';
import type { Capability, ChatCallOptions, ChatRequest, ChatResponse } from '../../src/index.js';
import type { ChatFn } from './chat-model-fns.js';

/** What a fake model does on a call: answer with a response, or throw an error. */
export type FakeStep = ChatResponse | Error;

/** A plain-object ChatModel whose `chat` is a jest mock. */
export interface FakeModel {
  chat: jest.Mock<ChatFn>;
  supportedCapabilities?: () => ReadonlySet<Capability>;
}

/** What `fakeModel` makes: a FakeModel with a name that records its calls. */
export interface RecordingFakeModel extends FakeModel {
  readonly name: string;
  /** Every call's request and options, in order. */
  readonly calls: { request: ChatRequest; options: ChatCallOptions | undefined }[];
}

/**
 * The one fake chat model of the test suites: a plain object, as a user would write one. It
 * answers with `steps` in turn (an Error is thrown), repeating the last; with no steps it answers
 * `name` as its text. `chat` is a jest mock, and `calls` records requests and options.
 */
export function fakeModel(name = 'x', ...steps: FakeStep[]): RecordingFakeModel {
  const queue: FakeStep[] =
    steps.length > 0 ? steps : [{ aiMessage: { role: 'assistant', text: name } }];
  let index = 0;
  const calls: RecordingFakeModel['calls'] = [];
  return {
    name,
    calls,
    chat: jest.fn<ChatFn>(async (request, options) => {
      calls.push({ request, options });
      const step = queue[Math.min(index++, queue.length - 1)]!;
      if (step instanceof Error) throw step;
      return step;
    }),
  };
}

/** A fake model whose `chat` rejects with exactly `error` (any value) on every call. */
export function failingModel(error: unknown, name = 'failing'): RecordingFakeModel {
  const model = fakeModel(name);
  model.chat.mockImplementation(async (request, options) => {
    model.calls.push({ request, options });
    throw error;
  });
  return model;
}

/** Declares capabilities on a fake model (as `supportedCapabilities()`), and returns it. */
export function withCapabilities<
  T extends { supportedCapabilities?: () => ReadonlySet<Capability> },
>(model: T, capabilities: readonly Capability[]): T {
  model.supportedCapabilities = () => new Set(capabilities);
  return model;
}
