import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { userMessage } from '../../../src/core/chat/messages.js';
import { streamModel } from '../../../src/core/chat/stream.js';
import { errorAnswer } from '../../../src/core/errors/error-answer.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { withResilience } from '../../../src/core/resilience/resilient-chat-model.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import type { ModelErrorEvent } from '../../../src/core/strategies/model-routing-strategy.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';

const KEY = 'sk-missing-v1-secret';
const QUERY_SECRET = 'query-secret-42';
const request = { messages: [userMessage('hi')] };

const model = (baseURL: string) =>
  new OpenAiCompatibleChatModel({
    baseURL,
    apiKey: KEY,
    model: 'llama3',
    providerName: 'ollama',
  });

/**
 * A baseURL without its `/v1` (Ollama at http://localhost:11434) fails at the first request with
 * the server's bare 404. The error says which path was asked for and hints at the missing `/v1`,
 * never with the key or the query; the model fails over like any misconfigured one, once.
 */
describe('a 404 from the provider’s endpoint', () => {
  let server: Server;
  let origin = '';
  const asked: string[] = [];

  beforeAll(async () => {
    // Ollama's answers: plain text 404 off /v1, a JSON model_not_found for an unknown model
    server = createServer((req, res) => {
      asked.push(req.url ?? '');
      req.resume();
      req.on('end', () => {
        if (req.url?.startsWith('/v1/chat/completions')) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              error: {
                message: 'model "nope" not found',
                type: 'api_error',
                code: 'model_not_found',
              },
            }),
          );
          return;
        }
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('404 page not found');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('names the path it asked for and hints at the missing /v1, plain or streamed', async () => {
    const ollama = model(`${origin}/?token=${QUERY_SECRET}`);
    const plain = await ollama.chat(request).catch((error: unknown) => error);
    const streamed = await (async () => {
      for await (const _ of ollama.stream(request)) void _;
    })().catch((error: unknown) => error);

    for (const error of [plain, streamed]) {
      expect(error).toBeInstanceOf(ProviderException);
      expect(error).toMatchObject({ status: 404, kind: 'misconfigured' });
      const { message } = error as ProviderException;
      expect(message).toContain(
        'HTTP 404: 404 page not found (POST /chat/completions; is /v1 missing from baseURL?)',
      );
      expect(message).not.toContain(KEY);
      expect(message).not.toContain(QUERY_SECRET);
    }
  });

  it('a path with /v1 that names the model unknown gets the path, not the hint', async () => {
    const error = await model(`${origin}/v1`)
      .chat(request)
      .catch((failure: unknown) => failure);

    expect((error as ProviderException).message).toContain('(POST /v1/chat/completions)');
    expect((error as ProviderException).message).not.toContain('is /v1 missing');
  });

  it('through a router: asked once, failed over, and the caller’s answer says why', async () => {
    asked.length = 0;
    const errors: ModelErrorEvent[] = [];
    const router = new ModelRouter({
      routes: [{ name: 'ollama', model: withResilience(model(origin), { name: 'ollama' }) }],
      routingStrategy: new FailoverStrategy({ cooldownMs: 60_000 }),
      errorListeners: [(event) => errors.push(event)],
    });
    const failure = await (async () => {
      for await (const _ of streamModel(router, request)) void _;
    })().catch((error: unknown) => error);

    // a configuration fault: not retried on the model, cooled down by the normal rules
    expect(asked).toEqual(['/chat/completions']);
    expect(errors.map((event) => event.error)).toEqual([
      expect.objectContaining({ kind: 'misconfigured', status: 404 }),
    ]);
    const answer = errorAnswer(failure);
    expect(answer.message).toContain('is /v1 missing from baseURL?');
    expect(answer.message).not.toContain(KEY);
  });
});
