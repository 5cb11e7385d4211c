// What a connection over `server.maxConnections` gets, with a cap of 4: a JSON 503 in its path's
// dialect once its request arrives (served instead if served connections closed meanwhile),
// dropped if it sends none within a second; beyond twice the cap, Node closes it unanswered; and
// the log counts the refusals.
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type Socket } from 'node:net';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { ManualClock, startGateway, type RunningGateway } from './gateway-harness.js';
import { raw } from './raw-connection.js';

const KEY = 'sk-connection-cap-0123456789';
const MAX_CONNECTIONS = 4;

/** A new connection, once connected, and all that is read on it until it closes (or resets). */
function opened(url: string): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket: Socket = connect(Number(port), hostname, () => resolve({ socket, answer }));
    const answer = new Promise<string>((done) =>
      socket.on('close', () => done(Buffer.concat(chunks).toString('utf8'))),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
  });
}

/** The status, headers (lower-cased names) and JSON body of one raw answer. */
function parsed(answer: string): { status: number; head: string; body: unknown } {
  const [head = '', ...rest] = answer.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    head: head.toLowerCase(),
    body: JSON.parse(rest.join('\r\n\r\n')),
  };
}

const anthropicError = {
  type: 'error',
  error: { type: expect.any(String), message: expect.any(String) },
};

describe('connections over server.maxConnections', () => {
  let gateway: RunningGateway;
  const clock = new ManualClock();
  const warnings: string[] = [];
  /** Resolves once the server counts `count` connections open. */
  const serverHolds = async (count: number) => {
    const server = gateway.app.getHttpServer();
    const open = () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
      );
    for (let tries = 0; (await open()) !== count && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await open()).toBe(count);
  };

  beforeAll(async () => {
    gateway = await startGateway({
      clock: clock.read,
      logger: {
        log: () => undefined,
        error: () => undefined,
        warn: (message: unknown) => void warnings.push(String(message)),
      },
      config: {
        ...demoGatewayConfig({ tokenDelayMs: 0, failEvery: 0 }),
        auth: { keys: [{ name: 'team', key: KEY }] },
        maxConnections: MAX_CONNECTIONS,
      },
    });
  });

  afterAll(() => gateway.close());

  it('beyond maxConnections: a JSON 503 with Retry-After in the path’s dialect, until some close', async () => {
    const server = gateway.app.getHttpServer();
    server.closeIdleConnections(); // the keep-alive connections of the tests before
    const { hostname, port } = new URL(gateway.url);
    const held = await Promise.all(
      Array.from(
        { length: MAX_CONNECTIONS },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(Number(port), hostname, () => resolve(socket));
            socket.on('error', reject);
          }),
      ),
    );
    const ask = (path: string) =>
      raw(
        gateway.url,
        `GET ${path} HTTP/1.1\r\nhost: localhost\r\nx-api-key: ${KEY}\r\nconnection: close\r\n\r\n`,
      );

    const [openAi, anthropic] = [
      parsed(await ask('/v1/models')),
      parsed(await ask('/v1/messages')),
    ];
    for (const socket of held) socket.destroy();

    expect(openAi.status).toBe(503);
    expect(openAi.head).toContain('retry-after: 1');
    expect(openAi.body).toEqual({
      error: {
        message: expect.stringContaining('server.maxConnections'),
        type: 'server_error',
        param: null,
        code: 'too_many_connections',
      },
    });
    expect(anthropic.status).toBe(503);
    expect(anthropic.body).toEqual(anthropicError);
    // the server sees the held connections close a moment after the client does
    let served = 503;
    for (let tries = 0; served === 503 && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      served = parsed(await ask('/v1/models')).status;
    }
    expect(served).toBe(200);
  });

  it('over the cap, but served connections closed before its request: served', async () => {
    gateway.app.getHttpServer().closeIdleConnections();
    await serverHolds(0);
    const held = [];
    for (let i = 0; i < MAX_CONNECTIONS; i += 1) held.push(await opened(gateway.url));
    const late = await opened(gateway.url);
    await serverHolds(MAX_CONNECTIONS + 1);
    held.pop()!.socket.destroy();
    await serverHolds(MAX_CONNECTIONS);

    late.socket.write(
      `GET /v1/models HTTP/1.1\r\nhost: localhost\r\nx-api-key: ${KEY}\r\nconnection: close\r\n\r\n`,
    );
    const answer = parsed(await late.answer);
    for (const { socket } of held) socket.destroy();

    expect(answer.status).toBe(200);
  });

  it('beyond twice maxConnections: closed unanswered; silent over the cap: dropped; both logged', async () => {
    gateway.app.getHttpServer().closeIdleConnections();
    // the next refusal opens a new report
    clock.advance(60_000);
    const held = [];
    for (let i = 0; i < MAX_CONNECTIONS * 2; i += 1) held.push(await opened(gateway.url));
    const beyond = await opened(gateway.url).catch(() => undefined);

    expect(await beyond?.answer).toBeFalsy();
    expect(warnings.at(-1)).toMatch(
      /server\.maxConnections \(4\).*: \d+ answered 503, 1 closed unanswered .*over 8 open/,
    );
    // the ones over the cap that send nothing are dropped (after a second), unanswered
    const overCap = held.slice(MAX_CONNECTIONS);
    expect(await Promise.all(overCap.map(({ answer }) => answer))).toEqual(['', '', '', '']);
    expect(held.slice(0, MAX_CONNECTIONS).every(({ socket }) => !socket.destroyed)).toBe(true);
    for (const { socket } of held) socket.destroy();
  });
});
