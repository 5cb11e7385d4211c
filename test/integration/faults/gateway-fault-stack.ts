import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';
import { createGatewayApp } from '../../../apps/gateway/src/create-gateway-app.js';
import type { ModelRouterModuleOptions } from '../../../src/nest/module/model-router-module-options.js';
import { FaultStack, within, type FaultStackOptions } from './fault-fixture.js';

export const GATEWAY_TEXT = 'tell me a short story about resilience';
export const GATEWAY_MESSAGES = [{ role: 'user' as const, content: GATEWAY_TEXT }];

/** A streamed call as the official client saw it, and as it went over the wire. */
export interface StreamedCall {
  chunks: ChatCompletionChunk[];
  /** What the client's iteration (or the request) threw, if anything. */
  error?: unknown;
  /** The `data:` payloads of the SSE body, in order (`[DONE]` included when sent). */
  events: string[];
}

/**
 * The fault stack behind the demo gateway over HTTP: the official openai client → the gateway
 * (Fastify, on 127.0.0.1) → router `main` → the models on the fake provider.
 */
export class GatewayFaultStack extends FaultStack {
  url!: string;
  /** The official client, without its own retries: what the caller sees is the gateway's. */
  client!: OpenAI;
  /**
   * Copies of the gateway's response bodies, one per request of `client`, in order: the client
   * hides whether a stream ended with `[DONE]`; the wire does not.
   */
  private readonly bodies: Promise<string>[] = [];

  static override async start(options: FaultStackOptions): Promise<GatewayFaultStack> {
    const stack = new GatewayFaultStack(options);
    await stack.startApp(stack.moduleOptions());
    return stack;
  }

  protected override async startApp(module: ModelRouterModuleOptions): Promise<void> {
    const app = await createGatewayApp({ config: { module }, clock: this.clock, logger: false });
    await app.listen(0, '127.0.0.1');
    this.app = app;
    const { port } = app.getHttpServer().address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/v1`;
    this.client = new OpenAI({
      baseURL: this.url,
      apiKey: 'sk-gateway-client',
      maxRetries: 0,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        // a body nobody reads is dropped with the stack; a failed read is an empty body
        this.bodies.push(
          response
            .clone()
            .text()
            .catch(() => ''),
        );
        return response;
      },
    });
  }

  /** A chat completion through the client (router `main` unless `model` says otherwise). */
  complete(params: Partial<ChatCompletionCreateParamsNonStreaming> = {}): Promise<ChatCompletion> {
    return within(
      this.client.chat.completions.create({
        model: 'main',
        messages: GATEWAY_MESSAGES,
        ...params,
        stream: false,
      }),
    );
  }

  /**
   * A streamed completion through the client, kept whole: its chunks, the error it ended with,
   * and the SSE events the gateway sent.
   */
  streamed(model = 'main'): Promise<StreamedCall> {
    return within(this.collectStream(model));
  }

  /** The SSE `data:` payloads of the last response body. */
  async lastEvents(): Promise<string[]> {
    return (await this.lastBody())
      .split('\n\n')
      .map((block) => block.trim())
      .filter((block) => block.startsWith('data: '))
      .map((block) => block.slice('data: '.length));
  }

  /** The last response body as sent. */
  lastBody(): Promise<string> {
    return within(this.bodies.at(-1) ?? Promise.resolve(''));
  }

  override async close(): Promise<void> {
    // after an aborted request the client's pool may open a spare connection that never carries
    // a request; the server would wait for the client's keep-alive timeout to let it go
    (this.app.getHttpServer() as Server).closeAllConnections();
    await super.close();
  }

  private async collectStream(model: string): Promise<StreamedCall> {
    const chunks: ChatCompletionChunk[] = [];
    let error: unknown;
    try {
      const stream = await this.client.chat.completions.create({
        model,
        messages: GATEWAY_MESSAGES,
        stream: true,
      });
      for await (const chunk of stream) chunks.push(chunk);
    } catch (thrown) {
      error = thrown;
    }
    return { chunks, events: await this.lastEvents(), ...(error === undefined ? {} : { error }) };
  }
}

/** The text of streamed chunks, concatenated. */
export const contentOf = (chunks: ChatCompletionChunk[]) =>
  chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
