import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Agent, type Dispatcher } from 'undici';
import { userMessage } from '../../../src/core/chat/messages.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { AnthropicChatModel } from '../../../src/providers/anthropic/anthropic-chat-model.js';
import {
  OpenAiCompatibleChatModel,
  type OpenAiCompatibleChatModelOptions,
} from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { ServerSockets, until } from '../faults/server-sockets.js';
import { drain, rejectionOf } from './provider-test-kit.js';

const KEY = 'sk-test-transport-0123456789abcdef';
const ask = { messages: [userMessage('hello world')] };

/**
 * The project's own HTTP path (an undici pool per origin), seen from the provider's side of the
 * socket: connections are reused, bounded, and closed when a call is abandoned; an SDK client of
 * the caller's own is still what sends the calls.
 */
describe('provider HTTP transport', () => {
  let provider: FakeProvider;
  let sockets: ServerSockets;
  const openai = (name: string, options: Partial<OpenAiCompatibleChatModelOptions> = {}) =>
    new OpenAiCompatibleChatModel({
      baseURL: provider.openaiBaseURL,
      apiKey: KEY,
      model: name,
      ...options,
    });

  beforeAll(async () => {
    provider = await FakeProvider.start();
  });
  afterAll(() => provider.close());
  beforeEach(() => {
    provider.reset();
    sockets = new ServerSockets(provider.port);
  });
  afterEach(() => sockets.dispose());

  it('sends N sequential calls of several models over one kept-alive connection', async () => {
    // a fresh pool of its own: connections of earlier tests do not count
    const http = { keepAliveTimeoutMs: 30_000, connections: 7 };
    const first = openai('gpt-a', { http });
    const second = openai('gpt-b', { http });
    for (let i = 0; i < 10; i++) {
      expect((await first.chat(ask)).modelName).toBe('gpt-a');
      expect((await second.chat(ask)).modelName).toBe('gpt-b');
    }
    expect(provider.requests.count()).toBe(20);
    // undici's pool opens a second connection while it still counts the first one busy with
    // its first request (a new connection's first call); from then on every call reuses one
    expect(sockets.used.size).toBeLessThanOrEqual(2);
    expect(sockets.openUsed()).toBe(sockets.used.size);
  });

  it('a whole stream gives its connection back: N streams do not open N connections', async () => {
    const model = openai('gpt-s', { http: { keepAliveTimeoutMs: 30_000, connections: 9 } });
    for (let i = 0; i < 6; i++) {
      const { events, error } = await drain(model.stream(ask));
      expect(error).toBeUndefined();
      expect(events.at(-1)?.type).toBe('complete');
    }
    // the stream completes on its usage chunk; its tail ([DONE]) is read after it, so the next
    // call may find the first connection still busy: a few at most, all of them kept
    expect(sockets.used.size).toBeLessThanOrEqual(3);
    await until(() => provider.requests.count() === 6);
    expect(sockets.openUsed()).toBe(sockets.used.size);
  });

  it('Anthropic calls reuse their connection too, with the key and API version the SDK sends', async () => {
    const model = new AnthropicChatModel({
      baseURL: provider.url,
      apiKey: KEY,
      model: 'claude-fake',
      http: { keepAliveTimeoutMs: 30_000, connections: 3 },
    });
    for (let i = 0; i < 8; i++) expect((await model.chat(ask)).finishReason).toBe('stop');
    expect(sockets.used.size).toBeLessThanOrEqual(2);
    const { events } = await drain(model.stream(ask));
    expect(events.at(-1)?.type).toBe('complete');
    const headers = provider.requests.last()!.headers;
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(headers['anthropic-version']).toBeDefined();
  });

  it('bounds the connections: concurrent calls beyond the bound wait for a free one', async () => {
    const model = openai('gpt-fault-slow-first-token-50', { http: { connections: 2 } });
    const answers = await Promise.all(Array.from({ length: 6 }, () => model.chat(ask)));
    expect(answers.map((answer) => answer.finishReason)).toEqual(Array(6).fill('stop'));
    expect(provider.requests.count()).toBe(6);
    expect(sockets.used.size).toBe(2);
  });

  it("the caller's abort of a hung call closes its connection", async () => {
    const controller = new AbortController();
    const reason = new Error('user left');
    const pending = rejectionOf(
      openai('gpt-fault-hang', { http: { connections: 5 } }).chat(ask, {
        signal: controller.signal,
      }),
    );
    await until(() => provider.requests.count() === 1);
    controller.abort(reason);
    expect(await pending).toBe(reason);
    const [connection] = sockets.used;
    await until(() => connection!.destroyed);
  });

  it('the model timeout closes the connection, and the next call opens a new one', async () => {
    const http = { connections: 6 };
    const error = (await rejectionOf(
      openai('gpt-fault-hang', { timeout: 50, http }).chat(ask),
    )) as ProviderException;
    expect(error.kind).toBe('timeout');
    const [hung] = sockets.used;
    await until(() => hung!.destroyed);
    expect((await openai('gpt-ok', { http }).chat(ask)).modelName).toBe('gpt-ok');
    expect(sockets.used.size).toBe(2);
  });

  it('a stream left before its end closes its connection (never back to the pool half-read)', async () => {
    const model = openai('gpt-fault-stall-after-3', { http: { connections: 8 } });
    for await (const event of model.stream(ask)) if (event.type === 'text-delta') break;
    const [connection] = sockets.used;
    await until(() => connection!.destroyed);
  });

  it('maps an HTTP error as the SDK did: the SDK error class as cause, status, code, retry-after', async () => {
    const error = (await rejectionOf(
      openai('gpt-fault-429-retry-after-2').chat(ask),
    )) as ProviderException;
    expect(error).toBeInstanceOf(ProviderException);
    expect([error.kind, error.status, error.code, error.retryAfterMs]).toEqual([
      'rate-limited',
      429,
      'rate_limit_exceeded',
      2000,
    ]);
    expect(error.cause).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.message).not.toContain(KEY);
  });

  it('a refused connection is a transient connection error without the key', async () => {
    const closed = await FakeProvider.start();
    const baseURL = closed.openaiBaseURL;
    await closed.close();
    const error = (await rejectionOf(
      new OpenAiCompatibleChatModel({ baseURL, apiKey: KEY, model: 'm' }).chat(ask),
    )) as ProviderException;
    expect(error.kind).toBe('transient');
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('could not connect');
    expect(error.cause).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('a dispatcher of your own carries the calls', async () => {
    const seen: string[] = [];
    const agent = new Agent();
    const dispatcher = agent.compose((dispatch: Dispatcher['dispatch']) => (options, handler) => {
      seen.push(`${options.method} ${options.path}`);
      return dispatch(options, handler);
    });
    try {
      await openai('gpt-own', { http: { dispatcher } }).chat(ask);
      expect(seen).toEqual(['POST /v1/chat/completions']);
    } finally {
      await agent.close();
    }
  });

  it('an injected OpenAI client is still what sends the calls (its fetch, its key)', async () => {
    const fetched: string[] = [];
    const client = new OpenAI({
      baseURL: provider.openaiBaseURL,
      apiKey: KEY,
      maxRetries: 0,
      fetch: (url, init) => {
        fetched.push(String(url));
        return fetch(url, init);
      },
    });
    const model = new OpenAiCompatibleChatModel({ model: 'gpt-client', client });
    expect((await model.chat(ask)).modelName).toBe('gpt-client');
    const { events } = await drain(model.stream(ask));
    expect(events.at(-1)?.type).toBe('complete');
    expect(fetched).toHaveLength(2);
    const error = (await rejectionOf(
      new OpenAiCompatibleChatModel({ model: 'gpt-fault-401', client }).chat(ask),
    )) as ProviderException;
    expect(error.kind).toBe('misconfigured');
    expect(error.message).not.toContain(KEY);
  });

  it('an injected Anthropic client is still what sends the calls', async () => {
    const fetched: string[] = [];
    const client = new Anthropic({
      baseURL: provider.url,
      apiKey: KEY,
      maxRetries: 0,
      fetch: (url, init) => {
        fetched.push(String(url));
        return fetch(url, init);
      },
    });
    const model = new AnthropicChatModel({ model: 'claude-fake', client });
    expect((await model.chat(ask)).finishReason).toBe('stop');
    expect(fetched).toHaveLength(1);
  });

  it('a subclass that overrides createClient is served by its client', async () => {
    let built = 0;
    class Custom extends OpenAiCompatibleChatModel {
      protected override createClient(): OpenAI {
        built++;
        return new OpenAI({ baseURL: provider.openaiBaseURL, apiKey: KEY, maxRetries: 0 });
      }
    }
    await new Custom({ model: 'gpt-custom', apiKey: KEY }).chat(ask);
    expect(built).toBe(1);
  });

  it('refuses a malformed http option at construction, naming it', () => {
    expect(() => openai('m', { http: { connections: 0 } })).toThrow('options.http.connections');
    expect(() => openai('m', { http: { dispatcher: {} as unknown as Dispatcher } })).toThrow(
      'options.http.dispatcher',
    );
  });
});
