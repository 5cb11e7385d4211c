import { getEventListeners } from 'node:events';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { abortOnDisconnect } from '../../../apps/gateway/src/http/client-disconnect.js';
import { BaseChatModel } from '../../../src/core/chat/base-chat-model.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { withResilience } from '../../../src/core/resilience/resilient-chat-model.js';

/** An instant provider, wrapped as the gateway wraps one: its attempts link to the signal. */
class Instant extends BaseChatModel {
  constructor() {
    super({});
  }
  protected doChat(): Promise<ChatResponse> {
    return Promise.resolve({ aiMessage: { role: 'assistant', text: 'ok' }, finishReason: 'stop' });
  }
}
const model = withResilience(new Instant(), {
  timeouts: { attemptMs: 10_000, deadlineMs: 20_000 },
});
const question = { messages: [{ role: 'user' as const, content: 'hi' }] };

/** What each path does with its request's disconnect signal. */
const routes: Record<string, (res: ServerResponse, signal: AbortSignal) => void> = {
  '/chat': (res, signal) => {
    void model.chat(question, { signal }).then((answer) => res.end(answer.aiMessage.text));
  },
  // a call that never settles and forgets its listener
  '/leak': (res, signal) => {
    signal.addEventListener('abort', () => undefined);
    res.end('ok');
  },
  // never answers: the client gives up
  '/hang': () => undefined,
};

let server: Server;
let port: number;
const signals: AbortSignal[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const signal = abortOnDisconnect(res);
    signals.push(signal);
    routes[req.url ?? '']!(res, signal);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(agent: Agent, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', path, agent }, (res) => {
      let body = '';
      res.on('data', (part: Buffer) => (body += part.toString()));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

const keepAlive = () => new Agent({ keepAlive: true, maxSockets: 1 });

describe('abortOnDisconnect', () => {
  it('serves 1,000 keep-alive requests on one connection with one signal and no listener left', async () => {
    const agent = keepAlive();
    signals.length = 0;
    let sockets = 0;
    const count = () => sockets++;
    server.on('connection', count);
    for (let i = 0; i < 1000; i++) expect(await get(agent, '/chat')).toBe('ok');
    server.off('connection', count);
    agent.destroy();
    expect(sockets).toBe(1);
    expect(new Set(signals).size).toBe(1);
    expect(getEventListeners(signals[0]!, 'abort')).toHaveLength(0);
    expect(signals[0]!.aborted).toBe(false);
  });

  it('gives the next request a new signal when a finished request left a listener', async () => {
    const agent = keepAlive();
    signals.length = 0;
    await get(agent, '/leak');
    await get(agent, '/chat');
    agent.destroy();
    expect(signals[1]).not.toBe(signals[0]);
    expect(getEventListeners(signals[1]!, 'abort')).toHaveLength(0);
  });

  it('aborts at once when the client goes away mid-response, and never after a finished one', async () => {
    const agent = keepAlive();
    signals.length = 0;
    await get(agent, '/chat');
    const hung = httpRequest({ port, host: '127.0.0.1', path: '/hang', agent });
    hung.on('error', () => undefined);
    hung.end();
    while (signals.length < 2) await new Promise((resolve) => setImmediate(resolve));
    expect(signals[1]).toBe(signals[0]); // the same connection's
    const aborted = new Promise((resolve) => signals[1]!.addEventListener('abort', resolve));
    hung.destroy();
    await aborted;
    expect((signals[1]!.reason as DOMException).name).toBe('AbortError');

    const other = keepAlive();
    const closed = new Promise((resolve) =>
      server.once('connection', (socket: Socket) => socket.once('close', resolve)),
    );
    await get(other, '/chat');
    other.destroy();
    await closed;
    expect(signals[2]!.aborted).toBe(false);
  });
});
