import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { APIError } from 'openai';
import { FakeProvider } from '../../../src/testing/index.js';
import { COOLDOWN_MS, fallback, primary, rejectionOf, useFaultStacks } from './fault-fixture.js';
import { GATEWAY_MESSAGES as messages, GatewayFaultStack } from './gateway-fault-stack.js';
import { ServerSockets, until } from './server-sockets.js';

/**
 * Over HTTP through the demo gateway with the official openai client, what concerns more than
 * one model's fault (every fault, one by one: gateway-faults-all.spec.ts): every model cooling
 * down (503 + Retry-After), and a client that leaves mid-stream.
 */

describe('faults over HTTP through the gateway (official openai client)', () => {
  const faults = useFaultStacks(GatewayFaultStack);

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
