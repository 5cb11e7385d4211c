import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import { maxHeaderSize, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Registry } from 'prom-client';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { createGatewayApp } from '../../../apps/gateway/src/create-gateway-app.js';
import type { ChatModel, ChatStreamEvent } from '../../../src/core/chat/chat-model.js';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { postJson, startGateway, user, type RunningGateway } from './gateway-harness.js';

const offline = () => demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 });

interface WireErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

interface RawAnswer {
  status: number;
  contentType: string | undefined;
  body: unknown;
}

/** Sends `request` as is over a new connection and reads the answer until the server closes. */
function rawHttp(
  url: string,
  request: string,
  onConnected?: (socket: Socket) => void,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => {
      socket.write(request);
      onConnected?.(socket);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const contentType = /^content-type: *(.*)$/im.exec(head)?.[1]?.trim();
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        contentType,
        body: contentType?.startsWith('application/json') ? JSON.parse(body) : body,
      });
    });
  });
}

const get = (path: string, headers = '') =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers}\r\n`;

function expectOpenAiError(answer: RawAnswer, status: number, code: string, text: string): void {
  expect(answer.status).toBe(status);
  expect(answer.contentType).toMatch(/^application\/json/);
  const { error } = answer.body as WireErrorBody;
  expect(Object.keys(error).toSorted()).toEqual(['code', 'message', 'param', 'type']);
  expect(error.type).toBe('invalid_request_error');
  expect(error.code).toBe(code);
  expect(error.message).toContain(text);
}

describe('slow uploads', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway({ config: offline() });
  });

  afterAll(() => gateway.close());

  it('are cut after 60 s by default, where Fastify leaves requests unbounded', () => {
    expect((gateway.app.getHttpServer() as Server).requestTimeout).toBe(60_000);
  });

  it('are bounded by requestTimeoutMs when given', async () => {
    const app = await createGatewayApp({
      config: offline(),
      logger: false,
      metricsRegistry: new Registry(),
      requestTimeoutMs: 5_000,
    });
    try {
      expect((app.getHttpServer() as Server).requestTimeout).toBe(5_000);
    } finally {
      await app.close();
    }
  });

  it('refuses a requestTimeoutMs that is not a whole number of ms', async () => {
    const created = createGatewayApp({ config: offline(), logger: false, requestTimeoutMs: -1 });

    await expect(created).rejects.toThrow(InvalidConfigurationException);
    await expect(created).rejects.toThrow(/requestTimeoutMs .* got -1/);
  });
});

describe('errors raised before Nest sees the request', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway({ config: offline() });
  });

  afterAll(() => gateway.close());

  it('answers a malformed URL encoding with 400 in OpenAI’s error shape', async () => {
    expectOpenAiError(
      await rawHttp(gateway.url, get('/v1/models/%ZZ')),
      400,
      'fst_err_bad_url',
      'is not a valid url component',
    );
  });

  it('answers a model id longer than the router takes with 414 in OpenAI’s error shape', async () => {
    expectOpenAiError(
      await rawHttp(gateway.url, get(`/v1/models/${'m'.repeat(200)}`)),
      414,
      'fst_err_max_param_length',
      'max param length',
    );
  });

  it('answers an unknown route with 404 in OpenAI’s error shape', async () => {
    const answer = await rawHttp(gateway.url, get('/v2/nothing'));

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      error: {
        message: 'Cannot GET /v2/nothing',
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
  });

  it.each([
    ['a URL', get(`/v1/models?q=${'x'.repeat(20_000)}`)],
    ['a header', get('/v1/models', `x-padding: ${'x'.repeat(20_000)}\r\n`)],
  ])('answers %s over Node’s header limit with 431 in OpenAI’s error shape', async (_, request) => {
    expectOpenAiError(
      await rawHttp(gateway.url, request),
      431,
      'request_header_fields_too_large',
      `exceed ${maxHeaderSize} bytes`,
    );
  });

  it('answers malformed HTTP with 400 in OpenAI’s error shape', async () => {
    expectOpenAiError(
      await rawHttp(gateway.url, 'NOT HTTP AT ALL\r\n\r\n'),
      400,
      'bad_request',
      'not valid HTTP',
    );
  });

  it('answers a request that did not arrive within requestTimeoutMs with 408 in OpenAI’s error shape', async () => {
    const server = gateway.app.getHttpServer() as Server;
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    // half a request, then what Node's timeout checker does when requestTimeout has passed
    const answer = rawHttp(
      gateway.url,
      'POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{',
      () =>
        void accepted.then((socket) =>
          server.emit(
            'clientError',
            Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
            socket,
          ),
        ),
    );

    expectOpenAiError(await answer, 408, 'request_timeout', 'not received in time');
  });
});

describe('GET /v1/models/:id for provider/model-id', () => {
  /** The ids the `fake` provider was asked to build a model for. */
  const built: string[] = [];
  let gateway: RunningGateway;

  beforeAll(async () => {
    const demo = offline();
    gateway = await startGateway({
      config: {
        ...demo,
        providers: {
          fake: (modelId): ChatModel => {
            built.push(modelId);
            return {
              chat: async () => ({ aiMessage: { role: 'assistant', text: modelId } }),
            };
          },
          off: { disabled: "provider 'off' has no apiKey in this environment" },
        },
      },
    });
  });

  afterAll(() => gateway.close());

  const model = async (path: string) => {
    const response = await fetch(`${gateway.url}/v1/models/${path}`);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it.each(['fake%2Fgpt-4o', 'fake/gpt-4o', 'fake%2fgpt-4o'])(
    'answers %s like any other model',
    async (path) => {
      expect(await model(path)).toEqual({
        status: 200,
        body: {
          id: 'fake/gpt-4o',
          object: 'model',
          created: 0,
          owned_by: 'nest-model-router',
          kind: 'model',
        },
      });
    },
  );

  it('keeps the slashes of a model id that has its own', async () => {
    const { status, body } = await model('fake/meta-llama/llama-3.1-8b');

    expect(status).toBe(200);
    expect((body as { id: string }).id).toBe('fake/meta-llama/llama-3.1-8b');
  });

  it('builds no provider model to answer', () => {
    expect(built).toEqual([]);
  });

  it('still answers the configured routers and models', async () => {
    expect(await model('auto')).toMatchObject({
      status: 200,
      body: { id: 'auto', kind: 'router' },
    });
    expect(await model('demo-pro')).toMatchObject({
      status: 200,
      body: { id: 'demo-pro', kind: 'model' },
    });
  });

  it.each([
    ['an unknown provider', 'nobody%2Fgpt-4o', 'does not exist'],
    ['an unknown provider, slash unencoded', 'nobody/gpt-4o', 'does not exist'],
    ['a blank model id', 'fake%2F%20', 'does not exist'],
    ['a disabled provider', 'off%2Fgpt-4o', 'has no apiKey'],
  ])('answers %s with 404 model_not_found', async (_, path, text) => {
    const { status, body } = await model(path);
    const { error } = body as WireErrorBody;

    expect(status).toBe(404);
    expect(error.code).toBe('model_not_found');
    expect(error.message).toContain(text);
  });
});

/** Every message the Nest logger was given, one entry per call. */
class CapturingLogger implements LoggerService {
  readonly messages: string[] = [];
  log = (message: unknown) => this.add(message);
  error = (message: unknown) => this.add(message);
  warn = (message: unknown) => this.add(message);
  debug = (message: unknown) => this.add(message);
  verbose = (message: unknown) => this.add(message);
  fatal = (message: unknown) => this.add(message);

  private add(message: unknown): void {
    this.messages.push(String(message));
  }
}

/** Fails every call; a stream sends some text first. */
const brokenModel = (): ChatModel => ({
  chat: async () => {
    throw new Error('upstream refused');
  },
  async *stream(): AsyncIterable<ChatStreamEvent> {
    yield { type: 'text-delta', text: 'Once upon' };
    throw new Error('upstream cut the stream');
  },
});

describe('names a client chose, in log lines', () => {
  const logger = new CapturingLogger();
  const forged = 'error [Gateway] 500 forged: the database is gone';
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway({
      config: { ...offline(), providers: { broken: brokenModel } },
      logger,
    });
  });

  afterAll(() => gateway.close());

  const logged = (text: string) => logger.messages.filter((message) => message.includes(text));

  // names travel in a response header too, so since issue 24 they are refused before any call
  it.each([
    [
      'a newline, through the exception filter',
      { model: `broken/a\n${forged}`, models: ['broken/b'] },
    ],
    [
      'a terminal escape, through a stream that ends early',
      { model: `broken/s\r\n\u001b[2K${forged}`, models: ['broken/t'], stream: true },
    ],
  ])('cannot forge a line with %s in a model name: 400 before a call', async (_case, body) => {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      ...body,
      messages: [user('hi')],
    });
    const text = await response.text();

    expect(response.status).toBe(400);
    expect(text).toContain('printable Latin-1');
    expect(text).not.toContain('forged');
    expect(logged('forged')).toEqual([]);
  });
});
