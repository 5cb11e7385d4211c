import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ModelTimeoutException } from '../../../src/core/errors/timeout-exception.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { RemoteChatModel } from '../../../src/nest/microservice/remote-chat-model.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import { useFakeProvider } from '../../support/fake-provider.js';
import { ServerSockets, until } from '../../integration/faults/server-sockets.js';
import { clientOf, type TransportName } from './support/router-service.js';
import { useRouterService } from './support/use-router-service.js';

const ask = (text: string): ChatRequest => ({ messages: [{ role: 'user', content: text }] });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

/** Cancellation reaches the service: the model's own signal aborts there, not just the reply. */
describe.each<TransportName>(['tcp', 'redis'])('cancellation over %s', (transport) => {
  const fake = useFakeProvider();
  const handle = useRouterService(transport, () => ({
    provider: new OpenAiCompatibleChatModel({
      baseURL: fake.provider.openaiBaseURL,
      apiKey: 'sk-test-0123456789',
      model: 'gpt-stall',
    }),
  }));
  // the provider's side of every connection it accepts in this block (a pool reuses them)
  let sockets: ServerSockets;
  beforeAll(() => {
    sockets = new ServerSockets(fake.provider.port);
  });
  afterAll(() => sockets.dispose());

  it("the caller's abort rejects with its reason and aborts the model's call on the service", async () => {
    const controller = new AbortController();
    const reason = new Error('the user went away');
    const call = handle
      .remote({ router: 'hanging' })
      .chat(ask('hi'), { signal: controller.signal });
    await until(() => handle.probe.hangingCalls === 1);

    controller.abort(reason);

    await expect(call).rejects.toBe(reason);
    await until(() => handle.probe.aborts.length === 1);
    expect(handle.probe.aborts[0]).toMatchObject({
      name: 'AbortError',
      message: expect.stringMatching(/^Call '[0-9a-f-]{36}' was cancelled by its client$/),
    });
    // the service's interceptors saw the call end
    await until(() => handle.probe.calls.length === 1);
    expect(handle.probe.calls[0]).toMatchObject({ mode: 'chat', router: 'hanging' });
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('too late'));

    await expect(
      handle.remote({ router: 'hanging' }).chat(ask('hi'), { signal: controller.signal }),
    ).rejects.toThrow('too late');
    expect(handle.probe.hangingCalls).toBe(0);
  });

  it('leaving a stream early cancels it on the service', async () => {
    for await (const event of handle.remote({ router: 'hanging' }).stream(ask('hi'))) {
      expect(event).toEqual({ type: 'text-delta', text: 'thinking… ' });
      break;
    }

    await until(() => handle.probe.aborts.length === 1);
    expect(handle.probe.aborts[0]).toMatchObject({ name: 'AbortError' });
  });

  it('the client timeout is a ModelTimeoutException, and cancels the call on the service', async () => {
    const error = await rejection(
      // room for the call to reach the model on the service before the bound cancels it
      handle.remote({ router: 'hanging', timeoutMs: 1_000 }).chat(ask('hi')),
    );

    expect(error).toBeInstanceOf(ModelTimeoutException);
    expect(error).toMatchObject({ phase: 'deadline', timeoutMs: 1_000 });
    expect((error as Error).message).toContain(
      "did not answer model-router.chat within 1000 ms (router 'hanging')",
    );
    await until(() => handle.probe.aborts.length === 1);
  });

  it("a stream left early closes the provider's connection (FakeProvider sees it closed)", async () => {
    {
      fake.provider.setFault('gpt-stall', 'fault-stall-after-3');
      const seen: string[] = [];
      for await (const event of handle.remote({ router: 'provider' }).stream(ask('hi'))) {
        if (event.type === 'text-delta') seen.push(event.text);
        if (seen.length === 2) break;
      }

      expect(sockets.used.size).toBeGreaterThan(0);
      await until(() => sockets.openUsed() === 0);
      expect(fake.provider.requests.count('gpt-stall')).toBe(1);
    }
  });

  it("an aborted chat closes the provider's connection", async () => {
    {
      fake.provider.setFault('gpt-stall', 'fault-hang');
      const controller = new AbortController();
      const call = handle
        .remote({ router: 'provider' })
        .chat(ask('hi'), { signal: controller.signal });
      await until(() => fake.provider.requests.count('gpt-stall') === 1);

      controller.abort(new Error('cancelled'));

      await expect(call).rejects.toThrow('cancelled');
      expect(sockets.used.size).toBeGreaterThan(0);
      await until(() => sockets.openUsed() === 0);
    }
  });

  if (transport === 'tcp') {
    it('a client connection that closes aborts the calls it carried', async () => {
      const client = clientOf(handle.address);
      const call = new RemoteChatModel(client, { router: 'hanging' }).chat(ask('hi'));
      await until(() => handle.probe.hangingCalls === 1);

      client.close();

      await expect(call).rejects.toThrow('Connection closed');
      await until(() => handle.probe.aborts.length === 1);
      expect(handle.probe.aborts[0]).toMatchObject({ message: 'The client connection closed' });
    });
  }
});
