import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { ChatModelRoutingResult } from '../../../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../../../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import { LowestTokenUsageRoutingStrategy } from '../../../src/core/strategies/lowest-token-usage-routing-strategy.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { FakeProvider } from '../../../src/testing/index.js';
import {
  ManualClock,
  postJson,
  startGateway,
  user,
  type RunningGateway,
} from './gateway-harness.js';
import { abortedOf, WatchedProvider } from './watched-provider.js';

const FAKE_KEY = 'fake-key-for-adversarial-tests';
const SECRET = 'sk-test-secret-123';

interface WireErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

interface HealthBody {
  status: string;
  details: {
    'model-router': {
      routers: Record<string, { status: string; models: Record<string, { state: string }> }>;
    };
  };
}

/** Every line the Nest logger was given, as text. */
class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  log = (...args: unknown[]) => this.add('log', args);
  error = (...args: unknown[]) => this.add('error', args);
  warn = (...args: unknown[]) => this.add('warn', args);
  debug = (...args: unknown[]) => this.add('debug', args);
  verbose = (...args: unknown[]) => this.add('verbose', args);
  fatal = (...args: unknown[]) => this.add('fatal', args);

  private add(level: string, args: unknown[]): void {
    const text = args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg)));
    this.lines.push(`${level} ${text.join(' ')}`);
  }
}

/** Answers `<name>: <last user text>` for 10 tokens, so token balancing alternates between two. */
class NamedModel implements ChatModel {
  constructor(readonly name: string) {}

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const last = request.messages.at(-1);
    const text = last?.role === 'user' && typeof last.content === 'string' ? last.content : '';
    return {
      aiMessage: { role: 'assistant', text: `${this.name}: ${text}` },
      modelName: this.name,
      tokenUsage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 },
    };
  }
}

async function expectBadRequest(response: Response, param: string | RegExp, text: string) {
  const body = (await response.json()) as WireErrorBody;
  expect(response.status).toBe(400);
  expect(body.error.type).toBe('invalid_request_error');
  if (typeof param === 'string') expect(body.error.param).toBe(param);
  else expect(body.error.param).toMatch(param);
  expect(body.error.message).toContain(text);
}

const nested = (depth: number, leaf: string) => '['.repeat(depth) + leaf + ']'.repeat(depth);

describe('the gateway under hostile and careless clients', () => {
  const clock = new ManualClock();
  const logger = new CapturingLogger();
  const watched = new WatchedProvider();
  const providerSignals = watched.signals;
  let fake: FakeProvider;
  let gateway: RunningGateway;
  let completions: string;
  /** Asks the sticky router through /v1/chat/completions; the model that answered. */
  const ask = async (session?: string): Promise<string> => {
    const response = await fetch(completions, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(session !== undefined ? { 'x-model-router-session': session } : {}),
      },
      body: JSON.stringify({ model: 'sticky', messages: [user('hi')] }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { model: string }).model;
  };
  /** Asks the sticky router through POST /chat in session chat-2; the model that answered. */
  const askChat = async () => {
    const response = await fetch(`${gateway.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-model-router-session': 'chat-2' },
      body: JSON.stringify({ router: 'sticky', messages: [user('hi')] }),
    });
    expect(response.status).toBe(200);
    return response.headers.get('x-model-router-model');
  };

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: FAKE_KEY });
    const demo = demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0, clock: clock.read });
    const sticky = new RoutingChatModel({
      routes: [
        {
          name: 'simple',
          model: new ModelRouter({
            routes: [
              { name: 'left', model: new NamedModel('left') },
              { name: 'right', model: new NamedModel('right') },
            ],
            routingStrategy: new FailoverStrategy({
              cooldownMs: 60_000,
              clock: clock.read,
              delegate: new LowestTokenUsageRoutingStrategy(),
            }),
          }),
        },
      ],
      router: () => ChatModelRoutingResult.defaultRoute(),
      defaultRoute: 'simple',
    });
    gateway = await startGateway({
      clock: clock.read,
      logger,
      config: {
        ...demo,
        module: { ...demo.module, routers: { ...demo.module.routers, sticky } },
        providers: {
          watched: watched.models(fake, FAKE_KEY),
        },
      },
    });
    completions = `${gateway.url}/v1/chat/completions`;
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  describe('bodies that used to end in a 500', () => {
    it('refuses JSON nested thousands of levels deep with 400, on both chat endpoints', async () => {
      const deepMessages = `{"model":"auto","messages":${nested(5000, '')}}`;
      await expectBadRequest(
        await postJson(completions, undefined, { raw: deepMessages }),
        /^messages(\.0)+$/,
        'nested more than 64 levels deep',
      );
      await expectBadRequest(
        await postJson(`${gateway.url}/chat`, undefined, {
          raw: `{"messages":${nested(5000, '')}}`,
        }),
        /^messages(\.0)+$/,
        'nested more than 64 levels deep',
      );
    });

    it('refuses a deeply nested tool schema with 400 naming the tool', async () => {
      const schema = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000);
      const raw =
        '{"model":"auto","messages":[{"role":"user","content":"hi"}],' +
        `"tools":[{"type":"function","function":{"name":"f","parameters":${schema}}}]}`;

      await expectBadRequest(
        await postJson(completions, undefined, { raw }),
        /^tools\.0\.function\.parameters(\.a)+$/,
        'nested more than 64 levels deep',
      );
    });

    it('still accepts an ordinary nested tool schema', async () => {
      const response = await postJson(completions, {
        model: 'demo-mini',
        messages: [user('hi')],
        tools: [
          {
            type: 'function',
            function: {
              name: 'lookup',
              parameters: {
                type: 'object',
                properties: {
                  filter: {
                    type: 'object',
                    properties: { tags: { type: 'array', items: { type: 'string' } } },
                  },
                },
              },
            },
          },
        ],
      });

      expect(response.status).toBe(200);
    });

    it('refuses response_format json_schema without its json_schema with 400', async () => {
      await expectBadRequest(
        await postJson(completions, {
          model: 'auto',
          messages: [user('hi')],
          response_format: { type: 'json_schema' },
        }),
        'response_format.json_schema',
        "required when type is 'json_schema'",
      );
    });

    it('takes `models: null` and other optional fields sent as null as absent', async () => {
      const response = await postJson(completions, {
        model: 'demo-pro',
        models: null,
        temperature: null,
        top_p: null,
        stop: null,
        max_tokens: null,
        messages: [user('hi')],
      });
      const body = (await response.json()) as { model: string };

      expect(response.status).toBe(200);
      expect(body.model).toBe('demo-pro');
    });

    it('takes `parameters: null` on POST /chat as no parameters', async () => {
      const response = await postJson(`${gateway.url}/chat`, {
        messages: [user('What is the capital of France?')],
        parameters: null,
      });

      expect(response.status).toBe(200);
      expect(((await response.json()) as ChatResponse).aiMessage.text).toContain('France');
    });
  });

  describe('text-part content of tool, assistant and system messages', () => {
    it('reaches the model as text, where it used to put every model of the route into cooldown', async () => {
      const response = await postJson(completions, {
        model: 'auto',
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
          user('What is the weather in Paris?'),
          {
            role: 'assistant',
            content: [{ type: 'text', text: 'Let me look.' }],
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } },
            ],
          },
          {
            role: 'tool',
            tool_call_id: 'call_1',
            content: [
              { type: 'text', text: 'sunny' },
              { type: 'text', text: '21 degrees' },
            ],
          },
        ],
      });
      const body = (await response.json()) as { choices: { message: { content: string } }[] };

      expect(response.status).toBe(200);
      expect(body.choices[0]!.message.content).toContain('The tool returned: sunny\n21 degrees');
      const health = (await (await fetch(`${gateway.url}/health`)).json()) as HealthBody;
      const models = health.details['model-router'].routers.auto!.models;
      expect(Object.values(models).map((model) => model.state)).toEqual([
        'available',
        'available',
        'available',
        'available',
      ]);
    });

    it('refuses media in a tool message with 400 naming the field', async () => {
      await expectBadRequest(
        await postJson(completions, {
          model: 'auto',
          messages: [
            user('hi'),
            {
              role: 'tool',
              tool_call_id: 'call_1',
              content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
            },
          ],
        }),
        'messages.1.content',
        'a tool message takes no media',
      );
    });

    it('refuses media in a system message with 400 naming the field', async () => {
      await expectBadRequest(
        await postJson(completions, {
          model: 'auto',
          messages: [
            {
              role: 'system',
              content: [{ type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }],
            },
            user('hi'),
          ],
        }),
        'messages.0.content',
        'a system message takes no media',
      );
    });
  });

  describe('model names no HTTP header can carry', () => {
    it.each([false, true])(
      'answers (stream: %s) with a Latin-1 name percent-encoded in the header, where a stream used to crash the process',
      async (stream) => {
        const response = await postJson(completions, {
          model: 'watched/gpt-ü',
          stream,
          messages: [user('hi')],
        });
        const text = await response.text();

        expect(response.status).toBe(200);
        expect(response.headers.get('x-model-router-model')).toBe('watched/gpt-%C3%BC');
        expect(text).toContain('"model":"watched/gpt-ü"');
        if (stream) expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      },
    );

    it.each([
      ['beyond Latin-1', 'watched/gpt-\u0100'],
      ['with a header of its own', 'watched/gpt\r\nx-evil: 1'],
    ])('refuses a name %s with a 400, streamed or not', async (_case, model) => {
      for (const stream of [false, true]) {
        const response = await postJson(completions, { model, stream, messages: [user('hi')] });
        await response.text();

        expect(response.status).toBe(400);
        expect(response.headers.get('x-evil')).toBeNull();
        expect(response.headers.get('x-model-router-model')).toBeNull();
      }
    });
  });

  describe('x-model-router-session', () => {
    it('without it, token balancing alternates between the two models', async () => {
      const first = await ask();
      const second = await ask();

      expect(new Set([first, second])).toEqual(new Set(['left', 'right']));
    });

    it('keeps a conversation on the model that answered it first', async () => {
      const answers = [await ask('conversation-1'), await ask('conversation-1')];
      answers.push(await ask('conversation-1'));

      expect(new Set(answers).size).toBe(1);
    });

    it('works on POST /chat too', async () => {
      const first = await askChat();

      expect(await askChat()).toBe(first);
      expect(await askChat()).toBe(first);
    });

    it('refuses a session key longer than 256 characters with 400', async () => {
      const response = await fetch(completions, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-model-router-session': 'x'.repeat(300) },
        body: JSON.stringify({ model: 'sticky', messages: [user('hi')] }),
      });
      const body = (await response.json()) as WireErrorBody;

      expect(response.status).toBe(400);
      expect(body.error.message).toContain('x-model-router-session is 300 characters long');
    });
    it('leaves GET /v1/models alone', async () => {
      const response = await fetch(`${gateway.url}/v1/models`, {
        headers: { 'x-model-router-session': 'x'.repeat(300) },
      });

      expect(response.status).toBe(200);
    });
  });

  describe('clients that disconnect', () => {
    it('aborts the provider call of every concurrent stream whose client leaves mid-answer', async () => {
      const before = providerSignals.length;
      await Promise.all(
        Array.from({ length: 5 }, async () => {
          const controller = new AbortController();
          const response = await postJson(
            completions,
            {
              model: 'watched/gpt-fault-stall-after-3',
              stream: true,
              messages: [user('tell me a long story about routers')],
            },
            { signal: controller.signal },
          );
          expect(response.status).toBe(200);
          const first = await response.body!.getReader().read();
          expect(first.done).toBe(false);
          controller.abort();
        }),
      );
      const signals = providerSignals.slice(before);

      expect(signals).toHaveLength(5);
      await Promise.all(signals.map(abortedOf));
      expect(fake.requests.count('gpt-fault-stall-after-3')).toBe(5);
    });

    it('aborts the provider call of a plain request whose client leaves before the answer', async () => {
      const before = providerSignals.length;
      const called = watched.nextCall();
      const controller = new AbortController();
      const request = postJson(
        completions,
        { model: 'watched/gpt-fault-hang', messages: [user('hi')] },
        { signal: controller.signal },
      ).catch((error: unknown) => error);
      await called;
      controller.abort();

      expect(await request).toMatchObject({ name: 'AbortError' });
      await abortedOf(providerSignals[before]!);
    });

    it('does not log a client’s disconnect as a server error', () => {
      expect(logger.lines.filter((line) => line.includes('AbortError'))).toEqual([]);
      expect(logger.lines.filter((line) => /\b500\b/.test(line))).toEqual([]);
    });
  });
});

describe('a provider key from OPENAI_API_KEY, a provider that echoes it, and every model down', () => {
  const clock = new ManualClock();
  const logger = new CapturingLogger();
  /** Everything a client or an operator could see. */
  const seen: string[] = [];
  let fake: FakeProvider;
  let gateway: RunningGateway;

  beforeAll(async () => {
    fake = await FakeProvider.start({ apiKey: SECRET });
    gateway = await startGateway({
      config: 'test/e2e/gateway/fixtures/adversarial-secrets.yaml',
      env: { FAKE_BASE_URL: fake.openaiBaseURL, OPENAI_API_KEY: SECRET },
      clock: clock.read,
      logger,
    });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  async function call(
    body: unknown,
  ): Promise<{ status: number; retryAfter: string | null; body: WireErrorBody }> {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, body);
    const text = await response.text();
    seen.push(text, JSON.stringify([...response.headers]));
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: JSON.parse(text) as WireErrorBody,
    };
  }

  async function health(): Promise<{ status: number; body: HealthBody }> {
    const response = await fetch(`${gateway.url}/health`);
    const text = await response.text();
    seen.push(text);
    return { status: response.status, body: JSON.parse(text) as HealthBody };
  }

  it('answers a 401 that echoes the key with 502 and the key redacted, streamed or not', async () => {
    for (const stream of [false, true]) {
      const { status, body } = await call({
        model: 'openai/gpt-fault-401',
        stream,
        messages: [user('hi')],
      });

      expect(status).toBe(502);
      // the provider did echo the key: the gateway removed it
      expect(body.error.message).toContain('[REDACTED]');
      expect(body.error.message).not.toContain(SECRET);
    }
    expect(fake.requests.last('gpt-fault-401')?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('answers 503 with a Retry-After that counts down with the clock, then doubles after a failed probe', async () => {
    const first = await call({ model: 'main', messages: [user('hi')] });
    expect(first.status).toBe(503);
    expect(first.retryAfter).toBe('30');

    const cooling = await call({ model: 'main', messages: [user('hi')] });
    expect(cooling.status).toBe(503);
    expect(cooling.body.error.code).toBe('models_cooling_down');
    expect(cooling.retryAfter).toBe('30');

    clock.advance(10_000);
    expect((await call({ model: 'main', messages: [user('hi')] })).retryAfter).toBe('20');

    clock.advance(19_500);
    // less than a second left: never 0, which clients read as "retry now"
    expect((await call({ model: 'main', messages: [user('hi')] })).retryAfter).toBe('1');

    clock.advance(500);
    const probe = await call({ model: 'main', stream: true, messages: [user('hi')] });
    expect(probe.status).toBe(503);
    expect(probe.retryAfter).toBe('60');
    expect(fake.requests.count('gpt-fault-401')).toBe(2 + 2);
  });

  it('reports the router down on /health (503) with the last error, key-free', async () => {
    const { status, body } = await health();
    const router = body.details['model-router'].routers.main!;

    expect(status).toBe(503);
    expect(router.status).toBe('down');
    expect(router.models.keyed!.state).toBe('cooldown');
  });

  it('never shows the key in a response, a header, /health or a log line', () => {
    const everything = [...seen, ...logger.lines].join('\n');

    expect(logger.lines.some((line) => line.includes('gpt-fault-401'))).toBe(true);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('secret-123');
  });
});
