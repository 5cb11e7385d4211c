import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import type { ChatCallOptions, ChatModel } from '../../../src/core/chat/chat-model.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { FakeProvider } from '../../../src/testing/index.js';
import {
  ManualClock,
  postJson,
  sseData,
  startGateway,
  startGatewayOnFake,
  user,
  type RunningGateway,
} from './gateway-harness.js';

const FAKE_KEY = 'fake-key-for-tests';
const WRONG_KEY = 'sk-wrong-secret-0123456789';

/** A model that answers only when its caller gives up: it reports what it saw. */
class WaitsForAbort implements ChatModel {
  readonly called: Promise<void>;
  readonly aborted: Promise<unknown>;
  private markCalled!: () => void;
  private markAborted!: (reason: unknown) => void;

  constructor() {
    this.called = new Promise((resolve) => (this.markCalled = resolve));
    this.aborted = new Promise((resolve) => (this.markAborted = resolve));
  }

  chat(_request: unknown, options: ChatCallOptions = {}): Promise<ChatResponse> {
    this.markCalled();
    return new Promise((_resolve, reject) => {
      options.signal?.addEventListener('abort', () => {
        this.markAborted(options.signal!.reason);
        reject(options.signal!.reason);
      });
    });
  }

  async *stream(_request: unknown, options: ChatCallOptions = {}) {
    yield { type: 'text-delta' as const, text: 'first words ' };
    this.markCalled();
    await new Promise<void>((resolve) =>
      options.signal?.addEventListener('abort', () => {
        this.markAborted(options.signal!.reason);
        resolve();
      }),
    );
    throw options.signal!.reason;
  }
}

describe('provider/model-id, per-request failover lists and mid-stream failures', () => {
  const clock = new ManualClock();
  const hangingChat = new WaitsForAbort();
  const hangingStream = new WaitsForAbort();
  let fake: FakeProvider;
  let gateway: RunningGateway;

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: FAKE_KEY });
    const demo = demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0, clock: clock.read });
    gateway = await startGateway({
      clock: clock.read,
      config: {
        ...demo,
        module: {
          ...demo.module,
          models: {
            ...demo.module.models,
            'hanging-chat': hangingChat,
            'hanging-stream': hangingStream,
          },
        },
        providers: {
          fake: {
            type: 'openai',
            baseURL: fake.openaiBaseURL,
            apiKey: FAKE_KEY,
            resilience: false,
          },
          wrongkey: {
            type: 'openai',
            baseURL: fake.openaiBaseURL,
            apiKey: WRONG_KEY,
            resilience: false,
          },
          nokey: { type: 'openai', baseURL: fake.openaiBaseURL, apiKey: '' },
        },
      },
    });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  describe('provider/model-id', () => {
    it('creates the model on the provider’s base URL with its key and names it in the answer', async () => {
      const { data, response } = await gateway.client.chat.completions
        .create({ model: 'fake/gpt-4o-mini', messages: [user('hello there')] })
        .withResponse();

      expect(data.model).toBe('fake/gpt-4o-mini');
      expect(response.headers.get('x-model-router-model')).toBe('fake/gpt-4o-mini');
      expect(data.choices[0]!.message.content).toBe('You said: hello there (model gpt-4o-mini)');
      expect(data.usage!.total_tokens).toBeGreaterThan(0);
      const seen = fake.requests.last('gpt-4o-mini')!;
      expect(seen.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    });

    it('streams a provider model', async () => {
      const stream = await gateway.client.chat.completions.create({
        model: 'fake/gpt-4o-mini',
        messages: [user('stream this please')],
        stream: true,
      });
      let text = '';
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        usage ??= chunk.usage;
      }

      expect(text).toBe('You said: stream this please (model gpt-4o-mini)');
      expect(usage?.completion_tokens).toBeGreaterThan(0);
    });

    it('answers 404 for a provider that is not declared', async () => {
      const error = await gateway.client.chat.completions
        .create({ model: 'elsewhere/gpt-4o', messages: [user('hi')] })
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as Error).message).toContain('fake/<model-id>');
    });

    it('answers 404 saying why for a declared provider without a key', async () => {
      const error = await gateway.client.chat.completions
        .create({ model: 'nokey/gpt-4o', messages: [user('hi')] })
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as Error).message).toContain("provider 'nokey' has no apiKey");
    });

    it('maps a provider failure to 502 without the key, even when the provider echoes it', async () => {
      const response = await postJson(`${gateway.url}/v1/chat/completions`, {
        model: 'wrongkey/gpt-4o-mini',
        messages: [user('hi')],
      });
      const text = await response.text();

      expect(response.status).toBe(502);
      expect(JSON.parse(text).error.type).toBe('server_error');
      expect(text).not.toContain(WRONG_KEY);
      expect(text).not.toContain(WRONG_KEY.slice(-8));
    });
  });

  describe('a per-request failover list (`models`)', () => {
    it('tries the models in the order of the request, not of the configuration', async () => {
      const { data, response } = await gateway.client.chat.completions
        .create({
          model: 'demo-pro-backup',
          messages: [user('hi')],
          // @ts-expect-error OpenRouter's extension of the body
          models: ['demo-pro'],
        })
        .withResponse();

      expect(data.model).toBe('demo-pro-backup');
      expect(response.headers.get('x-model-router-model')).toBe('demo-pro-backup');
    });

    it('fails over to the next model and remembers the failed one across requests', async () => {
      const body = { model: 'fake/gpt-fault-503', models: ['demo-pro'], messages: [user('hi')] };
      const first = await postJson(`${gateway.url}/v1/chat/completions`, body);
      const firstBody = (await first.json()) as { model: string };

      expect(first.status).toBe(200);
      expect(firstBody.model).toBe('demo-pro');
      expect(first.headers.get('x-model-router-model')).toBe('demo-pro');
      expect(fake.requests.count('gpt-fault-503')).toBe(1);

      // another list with the same model: its cooldown is shared per model name
      const second = await postJson(`${gateway.url}/v1/chat/completions`, {
        ...body,
        models: ['demo-mini-backup'],
      });
      expect(((await second.json()) as { model: string }).model).toBe('demo-mini-backup');
      expect(fake.requests.count('gpt-fault-503')).toBe(1);

      clock.advance(15_000);
      await postJson(`${gateway.url}/v1/chat/completions`, body);
      expect(fake.requests.count('gpt-fault-503')).toBe(2);
    });

    it('rejects a router in the list with 400 naming the entry', async () => {
      const response = await postJson(`${gateway.url}/v1/chat/completions`, {
        model: 'demo-pro',
        models: ['demo-mini', 'auto'],
        messages: [user('hi')],
      });
      const body = (await response.json()) as { error: { message: string } };

      expect(response.status).toBe(400);
      expect(body.error.message).toContain("models[1]: 'auto' is a router");
    });

    it('rejects an unknown model in the list with 404', async () => {
      const response = await postJson(`${gateway.url}/v1/chat/completions`, {
        model: 'demo-pro',
        models: ['no-such-model'],
        messages: [user('hi')],
      });

      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'model_not_found',
      );
    });
  });

  describe('a stream that fails after output started', () => {
    it('ends with an SSE error event and no [DONE]', async () => {
      const response = await postJson(`${gateway.url}/v1/chat/completions`, {
        model: 'fake/gpt-fault-cut-after-3',
        stream: true,
        messages: [user('tell me a long story about routers')],
      });
      const events = sseData(await response.text());

      expect(response.status).toBe(200);
      expect(events).not.toContain('[DONE]');
      const deltas = events
        .slice(0, -1)
        .map((e) => (e as OpenAI.ChatCompletionChunk).choices[0]?.delta.content ?? '')
        .join('');
      expect(deltas.length).toBeGreaterThan(0);
      const last = events[events.length - 1] as { error: { message: string; type: string } };
      expect(last.error.type).toBe('server_error');
      expect(last.error.message.length).toBeGreaterThan(0);
      // no chunk ever claimed the answer was finished
      const finishes = events
        .slice(0, -1)
        .map((e) => (e as OpenAI.ChatCompletionChunk).choices[0]?.finish_reason);
      expect(finishes.every((f) => f === null)).toBe(true);
    });

    it('makes the openai client throw instead of returning the truncated text', async () => {
      const stream = await gateway.client.chat.completions.create({
        model: 'fake/gpt-fault-cut-after-3',
        stream: true,
        messages: [user('tell me a long story about routers')],
      });
      let text = '';
      const outcome = await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })().catch((e: unknown) => e);

      expect(outcome).toBeInstanceOf(OpenAI.APIError);
      expect(text.length).toBeGreaterThan(0);
    });
  });

  describe('a client that goes away', () => {
    it('aborts the model call of a plain request', async () => {
      const controller = new AbortController();
      const request = postJson(
        `${gateway.url}/v1/chat/completions`,
        { model: 'hanging-chat', messages: [user('hi')] },
        { signal: controller.signal },
      ).catch((e: unknown) => e);
      await hangingChat.called;
      controller.abort();

      expect((await request) as Error).toMatchObject({ name: 'AbortError' });
      expect(await hangingChat.aborted).toMatchObject({ name: 'AbortError' });
    });

    it('aborts the model call of a stream', async () => {
      const controller = new AbortController();
      const response = await postJson(
        `${gateway.url}/v1/chat/completions`,
        { model: 'hanging-stream', stream: true, messages: [user('hi')] },
        { signal: controller.signal },
      );
      expect(response.status).toBe(200);
      await hangingStream.called;
      controller.abort();

      expect(await hangingStream.aborted).toMatchObject({ name: 'AbortError' });
    });
  });
});

describe('a YAML configuration with providers', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;

  beforeAll(async () => {
    ({ fake, gateway } = await startGatewayOnFake(FAKE_KEY, {
      config: 'test/e2e/gateway/fixtures/fake-providers.yaml',
    }));
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  it('serves the configured group, failing over from the broken model', async () => {
    const { data, response } = await gateway.client.chat.completions
      .create({ model: 'main', messages: [user('hello')] })
      .withResponse();

    expect(data.model).toBe('fake-mini');
    expect(response.headers.get('x-model-router-model')).toBe('fake-mini');
    expect(data.choices[0]!.message.content).toBe('You said: hello (model gpt-4o-mini)');
  });

  it('creates provider/model-id models with the provider’s settings', async () => {
    const completion = await gateway.client.chat.completions.create({
      model: 'fake/some-other-model',
      messages: [user('hello')],
    });

    expect(completion.model).toBe('fake/some-other-model');
    expect(fake.requests.last('some-other-model')?.headers.authorization).toBe(
      `Bearer ${FAKE_KEY}`,
    );
  });

  it('names the provider as configured when its model fails', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'fake/gpt-fault-500',
      messages: [user('hello')],
    });
    const body = (await response.json()) as { error: { message: string } };

    expect(response.status).toBe(502);
    expect(body.error.message).toMatch(/^fake model 'gpt-fault-500'/);
  });

  it('keeps a provider whose key is empty disabled, saying so', async () => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: 'nokey/claude-sonnet-4-6',
      messages: [user('hello')],
    });
    const body = (await response.json()) as { error: { message: string } };

    expect(response.status).toBe(404);
    expect(body.error.message).toContain("provider 'nokey' has no apiKey");
  });
});
