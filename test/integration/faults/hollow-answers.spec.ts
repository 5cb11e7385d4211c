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

/** The answer's text through a router, plain or streamed. */
async function answer(router: ModelRouter, request: ChatRequest, stream: boolean) {
  if (!stream) return (await router.chat(request)).aiMessage.text ?? '';
  let text = '';
  for await (const event of streamModel(router, request)) {
    if (event.type === 'text-delta') text += event.text;
  }
  return text;
}

/**
 * 200s that are not quite an answer, found by the fault bench: `content: null` with no tool call
 * under a `stop` was passed on as an empty success (s32); negative token counts were passed on
 * to the caller, cost and budgets (s37); content as an array of parts was passed on as an array
 * (s66); a finished stream without usage, held open, failed on the idle timeout (s68); an
 * answer the server gave up (`finish_reason: abort`) was reported as an answer (s85, s86).
 */
describe('200s that are not quite an answer', () => {
  const fake = useFakeProvider();
  let server: Server;
  let origin = '';

  beforeAll(async () => {
    // the model id says what to answer: `hollow` (nothing, finish stop), `negative` (usage < 0),
    // `parts` (content as parts), `open` (a stream held open after its finish, without usage),
    // `aborted` (finish_reason `abort`, as vLLM gives up a generation)
    server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(parts).toString()) as {
          model: string;
          stream?: boolean;
        };
        const text =
          body.model === 'hollow'
            ? null
            : body.model === 'parts'
              ? [
                  { type: 'thinking', thinking: 'The capital…' },
                  { type: 'text', text: 'Paris.' },
                ]
              : 'Paris.';
        const reason = body.model === 'aborted' ? 'abort' : 'stop';
        const usage =
          body.model === 'negative'
            ? { prompt_tokens: -9, completion_tokens: -5, total_tokens: -14 }
            : { prompt_tokens: 9, completion_tokens: 0, total_tokens: 9 };
        if (body.stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          const choice = (delta: object, finish: string | null) =>
            `data: ${JSON.stringify({ model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
          res.write(choice({ role: 'assistant', content: text ?? '' }, null));
          res.write(choice({}, reason));
          // finished, without the usage asked for, and the stream held open
          if (body.model === 'open') return;
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
              { index: 0, message: { role: 'assistant', content: text }, finish_reason: reason },
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

    // dropped, and estimated from the text instead: 'hi' is one token, the answer two
    expect(usage).toEqual({ inputTokens: 1, outputTokens: 2, totalTokens: 3, estimated: true });
  });

  it.each([
    ['plain', false],
    ['streamed', true],
  ])('content as an array of parts is its text parts, in a %s answer', async (_, stream) => {
    const parts = new OpenAiCompatibleChatModel({
      baseURL: origin,
      apiKey: 'sk-test',
      model: 'parts',
    });
    const request = { messages: [userMessage('hi')] };
    let text: string | undefined;
    if (stream) {
      for await (const event of parts.stream(request)) {
        if (event.type === 'complete') text = event.response.aiMessage.text;
      }
    } else {
      text = (await parts.chat(request)).aiMessage.text;
    }

    expect(text).toBe('Paris.');
  });

  it('a finished stream held open without its usage completes, and lets the connection go', async () => {
    const open = new OpenAiCompatibleChatModel({
      baseURL: origin,
      apiKey: 'sk-test',
      model: 'open',
    });
    const closed = new Promise<void>((resolve) =>
      server.once('request', (_req, res) => res.on('close', resolve)),
    );
    const events: string[] = [];
    for await (const event of open.stream({ messages: [userMessage('hi')] })) {
      events.push(event.type === 'text-delta' ? event.text : event.type);
    }

    expect(events).toEqual(['Paris.', 'complete']);
    await closed;
  });

  it('an answer the server gave up (finish_reason abort) is the model’s failure', async () => {
    const errors: ModelErrorEvent[] = [];
    const text = await answer(
      routerOver('aborted', errors),
      { messages: [userMessage('hi')] },
      false,
    );
    const aborted = new OpenAiCompatibleChatModel({
      baseURL: origin,
      apiKey: 'sk-test',
      model: 'aborted',
    });
    const streamed: string[] = [];
    const failure = await (async () => {
      try {
        for await (const event of aborted.stream({ messages: [userMessage('hi')] })) {
          streamed.push(event.type);
        }
      } catch (error) {
        return error;
      }
    })();

    expect(text).toBe('You said: hi (model healthy)');
    expect(errors.map((event) => event.error)).toEqual([
      expect.objectContaining({ code: 'answer_aborted', kind: 'transient' }),
    ]);
    expect(streamed).toEqual(['text-delta']);
    expect(failure).toMatchObject({ code: 'stream_truncated', kind: 'transient' });
  });
});
