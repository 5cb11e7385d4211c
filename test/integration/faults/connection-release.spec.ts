import 'reflect-metadata';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ModelTimeoutException } from '../../../src/core/errors/timeout-exception.js';
import { FakeProvider } from '../../../src/testing/index.js';
import {
  FaultStack,
  collect,
  completions,
  fallback,
  primary,
  textOf,
  within,
  ask,
} from './fault-fixture.js';
import { ServerSockets, until } from './server-sockets.js';

/**
 * Provider connections are let go, seen from the provider's side of the socket: when the caller
 * walks away mid-stream (and then nothing else is tried, and the model is not blamed), when a
 * timeout fires, and when a provider leaves a finished stream open.
 */

// the primary's stream stalls after three tokens with its connection open: only the caller's
// abort can end it (its idle bound is long, so that is what happens)
const patient = { attemptMs: 5_000, firstTokenMs: 5_000, idleMs: 5_000 };

describe('provider connections are released', () => {
  let provider: FakeProvider;
  let sockets: ServerSockets;
  let stack: FaultStack;

  beforeEach(async () => {
    provider = await FakeProvider.start();
    sockets = new ServerSockets(provider.port);
    stack = await FaultStack.start({
      provider,
      models: [primary({ timeouts: patient }), fallback()],
    });
    provider.setFault('gpt-primary', 'fault-stall-after-3');
  });
  afterEach(async () => {
    sockets.dispose();
    await stack.close();
    await provider.close();
  });

  async function expectProviderLetGo(): Promise<void> {
    // the provider's end of the streaming connection closes, because the client closed it
    expect(sockets.used.size).toBe(1);
    await until(() => sockets.openUsed() === 0);
    // nothing else was tried, and the abort does not count against the model
    expect(provider.requests.count()).toBe(1);
    expect(stack.seen('fallback').count).toBe(0);
    expect(stack.eventsOf('failover')).toEqual([]);
    expect(stack.circuit('primary').state).toBe('closed');
  }

  it('unsubscribing after the first delta closes the provider connection and tries nothing else', async () => {
    const { events, error } = await within(
      collect(stack.service.stream(ask()), (event, stop) => {
        if (event.type === 'text-delta') stop();
      }),
    );

    expect(error).toBeUndefined();
    expect(completions(events)).toEqual([]);
    expect(textOf(events).length).toBeGreaterThan(0);
    await expectProviderLetGo();
  });

  it("aborting the caller's signal ends the stream with the caller's reason and closes the connection", async () => {
    const controller = new AbortController();
    const reason = new Error('the user closed the tab');

    const { events, error } = await within(
      collect(stack.service.stream(ask(), { signal: controller.signal }), (event) => {
        if (event.type === 'text-delta') controller.abort(reason);
      }),
    );

    expect(error).toBe(reason);
    expect(completions(events)).toEqual([]);
    await expectProviderLetGo();
    // a cancellation, not a failure of the model
    expect(stack.eventsOf('model-failed').filter((e) => e.kind !== 'aborted')).toEqual([]);

    // the system still answers, on the primary, which was not blamed
    provider.setFault('gpt-primary', 'none');
    expect((await stack.chat()).modelName).toBe('gpt-primary');
  });

  it.each([
    ['a provider that never answers (chat)', 'fault-hang', 'chat'],
    ['a stream that stalls (stream)', 'fault-stall-after-3', 'stream'],
  ] as const)('%s: the timeout closes the provider connection too', async (_, fault, mode) => {
    // the primary with its default short bounds this time
    await stack.close();
    stack = await FaultStack.start({ provider, models: [primary(), fallback({ prefill: false })] });
    provider.setFault('gpt-primary', fault);

    if (mode === 'chat') await stack.chat();
    else await stack.stream();

    expect(stack.modelErrors[0]!.error).toBeInstanceOf(ModelTimeoutException);
    // the first connection carried the primary's request, which the provider left open: the
    // client closed it when the bound fired, rather than leaving it to the provider
    const [primaryConnection] = sockets.used;
    expect(primaryConnection).toBeDefined();
    await until(() => primaryConnection!.destroyed);
  });

  it('a complete stream whose provider never closes the connection (no [DONE]) releases it', async () => {
    await stack.close();
    stack = await FaultStack.start({ provider, models: [primary(), fallback()] });
    provider.setFault('gpt-primary', 'fault-no-done-open');

    const { events, error } = await stack.stream();

    expect(error).toBeUndefined();
    expect(completions(events)[0]).toMatchObject({ modelName: 'gpt-primary' });
    // the provider would hold it open forever: the client must close it once it has the answer
    const [connection] = sockets.used;
    expect(connection).toBeDefined();
    await until(() => connection!.destroyed);
  });
});
