import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { userMessage } from '../../../src/core/chat/messages.js';
import { streamModel } from '../../../src/core/chat/stream.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { withResilience } from '../../../src/core/resilience/resilient-chat-model.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import type { ModelErrorEvent } from '../../../src/core/strategies/model-routing-strategy.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { MAX_SSE_EVENT_CHARS } from '../../../src/providers/shared/sse-reader.js';
import { useFakeProvider } from '../../support/fake-provider.js';

/** An OpenAI-compatible model on the real HTTP path, with the default resilience. */
const model = (name: string, baseURL: string) =>
  withResilience(new OpenAiCompatibleChatModel({ baseURL, apiKey: 'sk-test', model: name }), {
    name,
  });

/**
 * An upstream whose stream is one `data:` line that never ends (the fault bench's 64 MiB line):
 * the provider gives up at the event limit and closes the connection, the group fails over at
 * once, and the reading is linear (it was quadratic, and stalled every other call of the process).
 */
describe('a stream whose one event never ends', () => {
  const fake = useFakeProvider();
  let server: Server;
  let written = 0;
  let closed!: Promise<void>;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => endless(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Writes `x` after `data: ` as fast as the client reads, until it closes the connection. */
  function endless(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"choices":[{"index":0,"delta":{"content":"');
    const piece = Buffer.alloc(64 * 1024, 'x');
    closed = new Promise((resolve) => res.on('close', resolve));
    const pump = () => {
      while (!res.destroyed) {
        written += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
    };
    pump();
  }

  it('fails the model with stream_event_too_large, closes its connection and fails over', async () => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const errors: ModelErrorEvent[] = [];
    const router = new ModelRouter({
      routes: [
        { name: 'runaway', model: model('runaway', `${origin}/v1`) },
        { name: 'healthy', model: model('healthy', fake.provider.openaiBaseURL) },
      ],
      routingStrategy: new FailoverStrategy({ cooldownMs: 60_000 }),
      errorListeners: [(event) => errors.push(event)],
    });

    let text = '';
    for await (const event of streamModel(router, { messages: [userMessage('hi')] })) {
      if (event.type === 'text-delta') text += event.text;
    }

    expect(text).toBe('You said: hi (model healthy)');
    expect(errors).toHaveLength(1);
    const failure = errors[0]!.error as ProviderException;
    expect(failure).toBeInstanceOf(ProviderException);
    expect(failure).toMatchObject({ code: 'stream_event_too_large', kind: 'unknown' });
    await closed;
    // the limit, and what the sockets' buffers held when the reader let go
    expect(written).toBeLessThan(MAX_SSE_EVENT_CHARS + 8 * 1024 * 1024);
  });
});
