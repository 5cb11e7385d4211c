import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { userMessage } from '../../../src/core/chat/messages.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { summarizeError } from '../../../src/core/observability/routing-event.js';
import {
  OpenAiCompatibleChatModel,
  type OpenAiCompatibleChatModelOptions,
} from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { completes, drain, rejectionOf, until } from './provider-test-kit.js';

const KEY = 'sk-live-secret-key-9f8e7d6c5b4a';
const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);

describe('OpenAiCompatibleChatModel error mapping (through the openai SDK)', () => {
  let provider: FakeProvider;
  const model = (name: string, options: Partial<OpenAiCompatibleChatModelOptions> = {}) =>
    new OpenAiCompatibleChatModel({
      baseURL: provider.openaiBaseURL,
      apiKey: KEY,
      model: name,
      clock: () => NOW,
      ...options,
    });
  const chatError = async (name: string, options: Partial<OpenAiCompatibleChatModelOptions> = {}) =>
    (await rejectionOf(
      model(name, options).chat({ messages: [userMessage('hi')] }),
    )) as ProviderException;

  beforeAll(async () => {
    provider = await FakeProvider.start({ clock: () => NOW });
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.reset());

  it.each([
    ['fault-429', 'rate-limited', 429, 'rate_limit_exceeded', undefined],
    ['fault-429-retry-after-2', 'rate-limited', 429, 'rate_limit_exceeded', 2000],
    ['fault-429-retry-after-ms-1500', 'rate-limited', 429, 'rate_limit_exceeded', 1500],
    ['fault-429-retry-after-date-120', 'rate-limited', 429, 'rate_limit_exceeded', 120_000],
    ['fault-500', 'transient', 500, 'server_error', undefined],
    ['fault-503-retry-after-1', 'transient', 503, 'server_error', 1000],
    ['fault-context-length', 'context-length', 400, 'context_length_exceeded', undefined],
    ['fault-content-filter', 'content-policy', 400, 'content_filter', undefined],
    ['fault-401', 'misconfigured', 401, 'invalid_api_key', undefined],
    ['fault-403', 'misconfigured', 403, 'model_not_allowed', undefined],
    ['fault-404', 'misconfigured', 404, 'model_not_found', undefined],
    ['fault-400', 'invalid-request', 400, 'invalid_request_error', undefined],
  ])(
    '%s → kind %s, status %s, code %s, retryAfterMs %s',
    async (name, kind, status, code, retryAfterMs) => {
      const error = await chatError(name);
      expect(error).toBeInstanceOf(ProviderException);
      expect({
        kind: error.kind,
        status: error.status,
        code: error.code,
        retryAfterMs: error.retryAfterMs,
        provider: error.provider,
        model: error.model,
      }).toEqual({ kind, status, code, retryAfterMs, provider: 'openai', model: name });
      expect(error.message).toContain(`model '${name}'`);
      expect(provider.requests.count(name)).toBe(1);
    },
  );

  it('maps the same faults when streaming, before any event', async () => {
    const { events, error } = await drain(
      model('fault-429-retry-after-3').stream({ messages: [userMessage('hi')] }),
    );
    expect(events).toEqual([]);
    expect(error).toMatchObject({ kind: 'rate-limited', status: 429, retryAfterMs: 3000 });
  });

  it('fault-500-once fails once, then the same model answers', async () => {
    expect((await chatError('flaky-fault-500-once')).kind).toBe('transient');
    const response = await model('flaky-fault-500-once').chat({ messages: [userMessage('hi')] });
    expect(response.finishReason).toBe('stop');
  });

  it('does not retry inside the SDK by default (retrying is the resilience layer job)', async () => {
    await chatError('fault-503');
    expect(provider.requests.count('fault-503')).toBe(1);
    await chatError('fault-502', { maxRetries: 1 });
    expect(provider.requests.count('fault-502')).toBe(2);
  });

  it('a connection reset before headers is transient, without status', async () => {
    const error = await chatError('fault-reset');
    expect(error.kind).toBe('transient');
    expect(error.status).toBeUndefined();
    const { error: streamError } = await drain(
      model('fault-reset').stream({ messages: [userMessage('hi')] }),
    );
    expect(streamError).toMatchObject({ kind: 'transient' });
  });

  it('a non-streamed body cut half-way is transient, never a response', async () => {
    expect((await chatError('fault-cut-after-1')).kind).toBe('transient');
  });

  it('a cut stream is transient with code stream_truncated or connection_interrupted', async () => {
    const { events, error } = await drain(
      model('fault-cut-after-2').stream({ messages: [userMessage('hi there')] }),
    );
    expect(completes(events)).toBe(0);
    expect(['stream_truncated', 'connection_interrupted']).toContain(
      (error as ProviderException).code,
    );
  });

  it('an SDK timeout on a provider that never answers is kind timeout', async () => {
    const error = await chatError('fault-hang', { timeout: 50 });
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('timeout of 50 ms');
  });

  it('the timeout bounds a non-streamed answer whose body stalls after the headers', async () => {
    expect((await chatError('fault-stall-after-1', { timeout: 50 })).kind).toBe('timeout');
  });

  it("the caller's abort comes back as the caller's own reason, not a provider error", async () => {
    const controller = new AbortController();
    const reason = new Error('user left');
    const pending = rejectionOf(
      model('fault-hang').chat({ messages: [userMessage('hi')] }, { signal: controller.signal }),
    );
    await until(() => provider.requests.count('fault-hang') === 1);
    controller.abort(reason);
    expect(await pending).toBe(reason);
  });

  it('redacts the API key a provider echoes back, from the message, the summary and the cause', async () => {
    const error = await chatError('fault-401');
    const echoed = JSON.stringify(provider.requests.last()!.headers);
    expect(echoed).toContain(KEY);
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('[REDACTED]');
    expect(JSON.stringify(summarizeError(error))).not.toContain(KEY);
    const cause = error.cause as Error & { error?: unknown };
    expect(cause.message).not.toContain(KEY);
    expect(JSON.stringify(cause.error)).not.toContain(KEY);
    expect(String(cause.stack)).not.toContain(KEY);
  });

  it('redacts a key it was not told about when it looks like one', async () => {
    const own = await FakeProvider.start({ apiKey: 'the-right-key' });
    try {
      const error = (await rejectionOf(
        new OpenAiCompatibleChatModel({
          baseURL: own.openaiBaseURL,
          apiKey: 'sk-wrong-key-1234567890',
          model: 'm',
        }).chat({
          messages: [userMessage('hi')],
        }),
      )) as ProviderException;
      expect(error.kind).toBe('misconfigured');
      expect(error.message).not.toContain('sk-wrong-key-1234567890');
    } finally {
      await own.close();
    }
  });
});
