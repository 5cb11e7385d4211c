import OpenAI from 'openai';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import type { FakeProvider } from '../../../src/testing/index.js';

/**
 * A provider on the FakeProvider whose HTTP requests the test watches: the specs that check a
 * client's abort frees the provider call see each request's signal, and when it was sent.
 */
export class WatchedProvider {
  /** The signal of every HTTP request the provider sent, in order. */
  readonly signals: AbortSignal[] = [];
  private called: () => void = () => undefined;

  /** Settles when the provider sends its next HTTP request. */
  nextCall(): Promise<void> {
    return new Promise<void>((resolve) => (this.called = resolve));
  }

  /** The gateway's `providers` entry: a model id on `fake`, over a watched fetch. */
  models(fake: FakeProvider, apiKey: string): (modelId: string) => OpenAiCompatibleChatModel {
    const watchedFetch = (url: string | URL | Request, init?: RequestInit) => {
      if (init?.signal) this.signals.push(init.signal);
      this.called();
      return fetch(url, init);
    };
    return (modelId) =>
      new OpenAiCompatibleChatModel({
        model: modelId,
        client: new OpenAI({
          baseURL: fake.openaiBaseURL,
          apiKey,
          maxRetries: 0,
          fetch: watchedFetch as typeof fetch,
        }),
      });
  }
}

/** Settles once `signal` is aborted (at once if it is). */
export function abortedOf(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}
