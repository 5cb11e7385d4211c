import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { startGateway, sseData, user, type RunningGateway } from './gateway-harness.js';
import { raw } from './raw-connection.js';

/** Every line the Nest logger was given. */
class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  log = (...args: unknown[]) => this.add('log', args);
  error = (...args: unknown[]) => this.add('error', args);
  warn = (...args: unknown[]) => this.add('warn', args);
  debug = (...args: unknown[]) => this.add('debug', args);
  verbose = (...args: unknown[]) => this.add('verbose', args);
  fatal = (...args: unknown[]) => this.add('fatal', args);

  private add(level: string, args: unknown[]): void {
    this.lines.push(`${level} ${args.map(String).join(' ')}`);
  }
}

const streamBody = JSON.stringify({
  model: 'demo-pro',
  stream: true,
  messages: [user('Design a fault-tolerant job queue')],
});

/** Issue 12, point 11. */
describe('connections of the gateway', () => {
  const logger = new CapturingLogger();
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway({
      config: demoGatewayConfig({ tokenDelayMs: 5, failEvery: 0 }),
      logger,
      requestTimeoutMs: 1000,
    });
  });

  afterAll(() => gateway.close());

  it('close after an SSE answer when the request said Connection: close', async () => {
    const answer = await raw(
      gateway.url,
      `POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(streamBody)}\r\n\r\n${streamBody}`,
    );
    const head = answer.split('\r\n\r\n')[0]!;
    expect(head).toMatch(/^content-type: text\/event-stream/im);
    expect(head).toMatch(/^connection: close$/im);
    expect(head).not.toMatch(/^connection: keep-alive$/im);
  });

  it('cut a slow upload at requestTimeoutMs, not up to 30 s later, with a 408', async () => {
    const answer = await raw(
      gateway.url,
      `POST /chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Content-Length: 1000\r\n\r\n{"messages":`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('do not log a client that aborts its chunked upload as a server error', async () => {
    const before = logger.lines.length;
    await new Promise<void>((resolve) => {
      const { hostname, port } = new URL(gateway.url);
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          'POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
            'Transfer-Encoding: chunked\r\n\r\n10\r\n{"model":"auto",\r\n',
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    // the server notices the abort on its next turns; give it a moment (no answer to wait for)
    await delay(300);
    expect(logger.lines.slice(before).filter((line) => / 5\d\d /.test(line))).toEqual([]);
  });
});

describe('a stream still running when the shutdown grace ends', () => {
  it('gets an error event before its socket is closed, and no [DONE]; a new request a 503', async () => {
    const gateway = await startGateway({
      config: demoGatewayConfig({ tokenDelayMs: 200, failEvery: 0 }),
      // long enough for the late request's 503 on a busy machine, far shorter than the stream
      shutdownGraceMs: 1_000,
    });
    // a request begun before the shutdown and completed during it
    let late: Socket | undefined;
    const lateAnswer = raw(
      gateway.url,
      'GET /v1/models HTTP/1.1\r\nhost: localhost\r\n',
      (socket) => {
        late = socket;
      },
    );
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamBody,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    const closing = gateway.close();
    const server = gateway.app.getHttpServer();
    while (server.listening) await delay(5);
    late!.write('\r\n');
    const [head = '', body = ''] = (await lateAnswer).split('\r\n\r\n');
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      text += decoder.decode(value);
    }
    await closing;

    const events = sseData(text);
    expect(events).not.toContain('[DONE]');
    expect(events.at(-1)).toMatchObject({ error: { code: 'server_shutting_down' } });
    // in OpenAI's shape with Retry-After, not Fastify's own 503 body
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head.toLowerCase()).toContain('retry-after: 1');
    expect(JSON.parse(body)).toEqual({
      error: expect.objectContaining({ type: 'server_error', code: 'server_shutting_down' }),
    });
  });
});
