import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { aiMessage, userMessage } from '../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import { streamModel } from '../../../src/core/chat/stream.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import { withResilience } from '../../../src/core/resilience/resilient-chat-model.js';
import { FailoverStrategy } from '../../../src/core/strategies/failover-strategy.js';
import type { ModelErrorEvent } from '../../../src/core/strategies/model-routing-strategy.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { useFakeProvider } from '../../support/fake-provider.js';

/** An OpenAI-compatible model on the real HTTP path, with the default resilience. */
const model = (name: string, baseURL: string) =>
  withResilience(new OpenAiCompatibleChatModel({ baseURL, apiKey: 'sk-test', model: name }), {
    name,
  });

/**
 * 200s that are not an answer, found by the fault bench (s32, s37): `content: null` with no tool
 * call under a `stop` was passed on as an empty success; negative token counts were passed on
 * to the caller (and to cost and budgets).
 */
describe('hollow answers under a 200', () => {
  const fake = useFakeProvider();
  let server: Server;
  let origin = '';

  beforeAll(async () => {
    // the model id says what to answer: `hollow` (nothing, finish stop) or `negative` (usage < 0)
    server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(parts).toString()) as {
          model: string;
          stream?: boolean;
        };
        const text = body.model === 'hollow' ? null : 'Paris.';
        const usage =
          body.model === 'negative'
            ? { prompt_tokens: -9, completion_tokens: -5, total_tokens: -14 }
            : { prompt_tokens: 9, completion_tokens: 0, total_tokens: 9 };
        if (body.stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          const choice = (delta: object, finish: string | null) =>
            `data: ${JSON.stringify({ model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
          res.write(choice({ role: 'assistant', content: text ?? '' }, null));
          res.write(choice({}, 'stop'));
          res.end(
            `data: ${JSON.stringify({ model: body.model, choices: [], usage })}\n\ndata: [DONE]\n\n`,
          );
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            model: body.model,
            choices: [
              { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
            ],
            usage,
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const routerOver = (first: string, errors: ModelErrorEvent[]) =>
    new ModelRouter({
      routes: [
        { name: first, model: model(first, origin) },
        { name: 'healthy', model: model('healthy', fake.provider.openaiBaseURL) },
      ],
      routingStrategy: new FailoverStrategy({ cooldownMs: 60_000 }),
      errorListeners: [(event) => errors.push(event)],
    });

  async function answer(router: ModelRouter, request: ChatRequest, stream: boolean) {
    if (!stream) return (await router.chat(request)).aiMessage.text ?? '';
    let text = '';
    for await (const event of streamModel(router, request)) {
      if (event.type === 'text-delta') text += event.text;
    }
    return text;
  }

  it.each([
    ['plain', false],
    ['streamed', true],
  ])('an empty %s answer is the model’s failure: the next model answers', async (_, stream) => {
    const errors: ModelErrorEvent[] = [];
    const text = await answer(
      routerOver('hollow', errors),
      { messages: [userMessage('hi')] },
      stream,
    );

    expect(text).toBe('You said: hi (model healthy)');
    expect(errors.map((event) => event.error)).toEqual([
      expect.objectContaining({ code: 'empty_response', kind: 'transient' }),
    ]);
    expect(errors[0]!.error).toBeInstanceOf(ProviderException);
  });

  it('an empty answer stands when the caller’s stop sequence or prefill may explain it', async () => {
    const hollow = new OpenAiCompatibleChatModel({
      baseURL: origin,
      apiKey: 'sk-test',
      model: 'hollow',
    });
    const stopped = await hollow.chat({
      messages: [userMessage('hi')],
      parameters: { stopSequences: ['Paris'] },
    });
    const continued = await hollow.chat({
      messages: [userMessage('hi'), aiMessage({ text: 'Paris.' })],
    });

    expect([stopped.aiMessage.text, stopped.finishReason]).toEqual([undefined, 'stop']);
    expect([continued.aiMessage.text, continued.finishReason]).toEqual([undefined, 'stop']);
  });

  it.each([
    ['plain', false],
    ['streamed', true],
  ])('negative token counts in a %s answer are dropped, the answer kept', async (_, stream) => {
    const negative = new OpenAiCompatibleChatModel({
      baseURL: origin,
      apiKey: 'sk-test',
      model: 'negative',
    });
    const request = { messages: [userMessage('hi')] };
    let usage: unknown;
    if (stream) {
      for await (const event of negative.stream(request)) {
        if (event.type === 'complete') usage = event.response.tokenUsage;
      }
    } else {
      usage = (await negative.chat(request)).tokenUsage;
    }

    expect(usage).toEqual({});
  });
});
