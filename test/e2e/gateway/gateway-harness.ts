import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import OpenAI from 'openai';
import {
  createGatewayApp,
  type GatewayAppOptions,
} from '../../../apps/gateway/src/create-gateway-app.js';
import { FakeProvider } from '../../../src/testing/index.js';

export interface RunningGateway {
  app: NestFastifyApplication;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The official OpenAI client pointed at the gateway. */
  client: OpenAI;
  close(): Promise<void>;
}

/** Starts the real gateway app on 127.0.0.1 and a random port. */
export async function startGateway(options: GatewayAppOptions = {}): Promise<RunningGateway> {
  const app = await createGatewayApp({ logger: false, shutdownGraceMs: 0, ...options });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    url,
    client: new OpenAI({ baseURL: `${url}/v1`, apiKey: 'not-needed', maxRetries: 0 }),
    close: () => app.close(),
  };
}

/**
 * A FakeProvider that wants `apiKey`, and the gateway on `options.config` with FAKE_BASE_URL,
 * FAKE_URL and FAKE_API_KEY in its env pointing at it (next to `options.env`), as the YAML
 * fixtures expect.
 */
export async function startGatewayOnFake(
  apiKey: string,
  options: GatewayAppOptions,
): Promise<{ fake: FakeProvider; gateway: RunningGateway }> {
  const fake = await FakeProvider.start({ apiKey });
  const gateway = await startGateway({
    ...options,
    env: {
      FAKE_BASE_URL: fake.openaiBaseURL,
      FAKE_URL: fake.url,
      FAKE_API_KEY: apiKey,
      ...options.env,
    },
  });
  return { fake, gateway };
}

/** A clock the test moves by hand: cooldowns pass without sleeping. */
export class ManualClock {
  constructor(public now = Date.parse('2030-01-01T00:00:00Z')) {}

  readonly read = (): number => this.now;

  advance(ms: number): void {
    this.now += ms;
  }
}

export async function postJson(
  url: string,
  body: unknown,
  init: { raw?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: init.raw ?? JSON.stringify(body),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

/** The `data:` payloads of an SSE body, in order (`[DONE]` kept as the string). */
export function sseData(text: string): unknown[] {
  return text
    .split('\n\n')
    .map((block) => block.trim())
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}

export const user = (content: string) => ({ role: 'user' as const, content });
