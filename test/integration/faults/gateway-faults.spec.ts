import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { APIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { FakeProvider } from '../../../src/testing/index.js';
import {
  API_KEY,
  COOLDOWN_MS,
  RETRY,
  expectedAnswer,
  fallback,
  primary,
  rejectionOf,
  useFaultStacks,
  within,
} from './fault-fixture.js';
import { GatewayFaultStack } from './gateway-fault-stack.js';
import { ServerSockets, until } from './server-sockets.js';

/**
 * The main faults once more, over HTTP through the demo gateway with the official openai client:
 * what a client of the gateway sees (the fallback in `model`, usage, an SSE error event and no
 * `[DONE]` for a stream that could not be finished, 503 + Retry-After when everything cools down).
 */

const TEXT = 'tell me a short story about resilience';
const messages = [{ role: 'user' as const, content: TEXT }];

interface GatewayCase {
  fault: string;
  primaryAttempts: number;
}

const FAILOVER_CASES: GatewayCase[] = [
  { fault: 'fault-503', primaryAttempts: RETRY.maxAttempts },
  { fault: 'fault-429-retry-after-ms-80', primaryAttempts: RETRY.maxAttempts },
  { fault: 'fault-reset', primaryAttempts: RETRY.maxAttempts },
  { fault: 'fault-hang', primaryAttempts: 1 },
  { fault: 'fault-slow-first-token-3000', primaryAttempts: 1 },
  { fault: 'fault-401', primaryAttempts: 1 },
  { fault: 'fault-context-length', primaryAttempts: 1 },
];

/** Streams through the client, keeping the chunks and the error the stream ended with. */
async function streamChunks(gateway: GatewayFaultStack) {
  const chunks: ChatCompletionChunk[] = [];
  try {
    const stream = await gateway.client.chat.completions.create({
      model: 'main',
      messages,
      stream: true,
    });
    for await (const chunk of stream) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

const contentOf = (chunks: ChatCompletionChunk[]) =>
  chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');

/** The raw SSE body of a streamed call, to see exactly how it ended. */
async function rawStream(gateway: GatewayFaultStack): Promise<string> {
  const response = await fetch(`${gateway.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'main', messages, stream: true }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

describe('faults over HTTP through the gateway (official openai client)', () => {
  const faults = useFaultStacks(GatewayFaultStack);

  describe.each(FAILOVER_CASES)('$fault on the primary', ({ fault, primaryAttempts }) => {
    it('chat: the completion names the fallback and carries usage', async () => {
      const gateway = await faults.start();
      faults.provider.setFault('gpt-primary', fault);

      const completion = await within(
        gateway.client.chat.completions.create({ model: 'main', messages }),
      );

      expect(completion.model).toBe('fallback');
      expect(completion.choices[0]!.message.content).toBe(expectedAnswer('gpt-fallback'));
      expect(completion.choices[0]!.finish_reason).toBe('stop');
      expect(completion.usage?.total_tokens).toBeGreaterThan(0);
      expect(gateway.seen('primary').count).toBe(primaryAttempts);
      expect(gateway.seen('fallback').count).toBe(1);
      expect(JSON.stringify(completion)).not.toContain(API_KEY);

      // the next call skips the cooling-down primary (a context-length error does not cool it)
      faults.provider.setFault('gpt-primary', 'none');
      const next = await gateway.client.chat.completions.create({ model: 'main', messages });
      expect(next.model).toBe(fault === 'fault-context-length' ? 'primary' : 'fallback');
      expect(gateway.seen('primary').count).toBe(
        primaryAttempts + (fault === 'fault-context-length' ? 1 : 0),
      );
    });

    it('stream: one whole answer, the last chunk names the fallback and carries usage', async () => {
      const gateway = await faults.start();
      faults.provider.setFault('gpt-primary', fault);

      const { chunks, error } = await within(streamChunks(gateway));

      expect(error).toBeUndefined();
      expect(contentOf(chunks)).toBe(expectedAnswer('gpt-fallback'));
      // every chunk names the model that is answering: the fallback, from the first one
      expect(new Set(chunks.map((chunk) => chunk.model))).toEqual(new Set(['fallback']));
      const last = chunks.at(-1)!;
      expect(last.choices[0]!.finish_reason).toBe('stop');
      expect(last.usage?.total_tokens).toBeGreaterThan(0);
      expect(gateway.seen('primary').count).toBe(primaryAttempts);
      expect(gateway.seen('fallback').count).toBe(1);
    });
  });

  it('a stream cut mid-answer is continued seamlessly by the prefill-capable fallback, then [DONE]', async () => {
    const gateway = await faults.start();
    faults.provider.setFault('gpt-primary', 'fault-cut-after-3');

    const { chunks, error } = await within(streamChunks(gateway));

    expect(error).toBeUndefined();
    expect(contentOf(chunks)).toBe(expectedAnswer('gpt-fallback'));
    expect(chunks.at(-1)!.model).toBe('fallback');
    expect(chunks.at(-1)!.usage?.total_tokens).toBeGreaterThan(0);

    faults.provider.reset();
    faults.provider.setFault('gpt-primary', 'fault-cut-after-3');
    gateway.advance(COOLDOWN_MS);
    const raw = await within(rawStream(gateway));
    expect(raw.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('an unrecoverable mid-stream failure ends with an SSE error event naming it, and no [DONE]', async () => {
    const gateway = await faults.start({ models: [primary(), fallback({ prefill: false })] });
    faults.provider.setFault('gpt-primary', 'fault-cut-after-3');

    const { chunks, error } = await within(streamChunks(gateway));

    // the client got the start of the answer, then an error, never a finished answer
    expect(contentOf(chunks)).toBe(
      expectedAnswer('gpt-primary')
        .match(/\s*\S+/g)!
        .slice(0, 3)
        .join(''),
    );
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason)).toBe(false);
    expect(error).toBeInstanceOf(APIError);
    expect((error as Error).message).toContain("The stream of model 'primary' failed");
    expect(gateway.seen('fallback').count).toBe(0);

    // on the wire: an error event and no [DONE]
    faults.provider.reset();
    faults.provider.setFault('gpt-primary', 'fault-cut-after-3');
    gateway.advance(COOLDOWN_MS);
    const raw = await within(rawStream(gateway));
    expect(raw).not.toContain('[DONE]');
    const last = JSON.parse(
      raw
        .trim()
        .split('\n\n')
        .at(-1)!
        .replace(/^data: /, ''),
    ) as {
      error?: { message: string; type: string };
    };
    expect(last.error?.message).toContain("The stream of model 'primary' failed");
    expect(raw).not.toContain(API_KEY);
  });

  it('every model cooling down: 503 with Retry-After, for chat and for stream, and nobody is called', async () => {
    const gateway = await faults.start();
    faults.provider.setFault('gpt-primary', 'fault-503');
    faults.provider.setFault('gpt-fallback', 'fault-503');
    await rejectionOf(gateway.client.chat.completions.create({ model: 'main', messages }));
    const calls = faults.provider.requests.count();
    gateway.advance(1_000);

    for (const stream of [false, true]) {
      const error = await rejectionOf(
        gateway.client.chat.completions.create({ model: 'main', messages, stream }),
      );
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(503);
      expect((error as APIError).headers?.get('retry-after')).toBe(
        String(Math.ceil((COOLDOWN_MS - 1_000) / 1000)),
      );
    }
    expect(faults.provider.requests.count()).toBe(calls);

    // and once the cooldown is over, the gateway answers again
    faults.provider.clearFaults();
    gateway.advance(COOLDOWN_MS);
    const completion = await gateway.client.chat.completions.create({ model: 'main', messages });
    expect(completion.model).toBe('primary');
  });

  it('a client that disconnects mid-stream: the provider connection is closed, nothing else is tried', async () => {
    // a provider of its own, so that the connection watched is the one this stream opens
    const own = await FakeProvider.start();
    const sockets = new ServerSockets(own.port);
    let stack: GatewayFaultStack | undefined;
    try {
      stack = await GatewayFaultStack.start({
        provider: own,
        models: [
          primary({ timeouts: { attemptMs: 5_000, firstTokenMs: 5_000, idleMs: 5_000 } }),
          fallback(),
        ],
      });
      own.setFault('gpt-primary', 'fault-stall-after-3');
      const controller = new AbortController();

      const stream = await stack.client.chat.completions.create(
        { model: 'main', messages, stream: true },
        { signal: controller.signal },
      );
      let content = '';
      // the openai client ends the iteration quietly when its own signal aborts it
      for await (const chunk of stream) {
        content += chunk.choices[0]?.delta.content ?? '';
        if (content) controller.abort();
      }

      expect(content.length).toBeGreaterThan(0);
      expect(sockets.used.size).toBe(1);
      await until(() => sockets.openUsed() === 0);
      expect(own.requests.count()).toBe(1);
      expect(stack.seen('fallback').count).toBe(0);
      expect(stack.circuit('primary').state).toBe('closed');
    } finally {
      sockets.dispose();
      await stack?.close();
      await own.close();
    }
  });
});
