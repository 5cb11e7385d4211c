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
import { MAX_ANSWER_BYTES } from '../../../src/providers/shared/http/provider-http.js';
import { MAX_SSE_EVENT_CHARS } from '../../../src/providers/shared/sse-reader.js';
import { useFakeProvider } from '../../support/fake-provider.js';

/** An OpenAI-compatible model on the real HTTP path, with the default resilience. */
const model = (name: string, baseURL: string) =>
  withResilience(new OpenAiCompatibleChatModel({ baseURL, apiKey: 'sk-test', model: name }), {
    name,
  });

/**
 * An upstream whose answer never ends (the fault bench's 64 MiB SSE line and 96 MiB JSON body):
 * the provider gives up at its limit and closes the connection, and the group fails over at
 * once. Reading a stream is linear (it was quadratic, and stalled every other call of the
 * process); a plain answer was read whole into memory, however long.
 */
describe('an answer that never ends', () => {
  const fake = useFakeProvider();
  let server: Server;
  let written = 0;
  let closed!: Promise<void>;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => endless(res, Buffer.concat(parts).includes('"stream":true')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /**
   * Writes `x` in an answer's content as fast as the client reads, until it closes the
   * connection: after `data: ` in a stream, in a chunked JSON body otherwise.
   */
  function endless(res: ServerResponse, stream: boolean): void {
    written = 0;
    res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
    const content = '{"choices":[{"index":0,"message":{"role":"assistant","content":"';
    res.write(stream ? `data: ${content}` : content);
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

  it.each([
    ['a stream', true, 'stream_event_too_large', MAX_SSE_EVENT_CHARS],
    ['a plain answer', false, 'answer_too_large', MAX_ANSWER_BYTES],
  ])(
    '%s: fails the model at its limit, closes its connection and fails over',
    async (_, stream, code, limit) => {
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

      const request = { messages: [userMessage('hi')] };
      let text = '';
      if (stream) {
        for await (const event of streamModel(router, request)) {
          if (event.type === 'text-delta') text += event.text;
        }
      } else {
        text = (await router.chat(request)).aiMessage.text ?? '';
      }

      expect(text).toBe('You said: hi (model healthy)');
      expect(errors).toHaveLength(1);
      const failure = errors[0]!.error as ProviderException;
      expect(failure).toBeInstanceOf(ProviderException);
      expect(failure).toMatchObject({ code, kind: 'unknown' });
      await closed;
      // the limit, and what the sockets' buffers held when the reader let go
      expect(written).toBeLessThan(limit + 8 * 1024 * 1024);
    },
  );
});
