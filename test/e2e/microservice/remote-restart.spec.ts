import { describe, expect, it } from '@jest/globals';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import { ModelTimeoutException } from '../../../src/core/errors/timeout-exception.js';
import { RemoteModelRouterException } from '../../../src/nest/microservice/remote-model-router.exception.js';
import { until } from '../../integration/faults/server-sockets.js';
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

/**
 * Two turns of the event loop, so that the client's refused socket has emitted `close`: Nest's
 * ClientTCP keeps a failed connection attempt (and fails the next call with it) until then. A
 * restart takes far longer than this in real life; the test restarts within microtasks.
 */
async function socketsSettle(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the router service restarted between two calls, over tcp', () => {
  const handle = useRouterService('tcp');

  it('a call while it is down is a clear transient error; the same client works once it is back', async () => {
    const remote = handle.remote();
    await expect(remote.chat(ask('before'))).resolves.toMatchObject({
      aiMessage: { text: 'echo: before' },
    });

    await handle.service.close();
    // the first call may find the old connection closing under it, the next finds nobody listening
    const first = await rejection(remote.chat(ask('while down')));
    const second = await rejection(remote.chat(ask('still down')));

    for (const error of [first, second]) {
      expect(error).toBeInstanceOf(RemoteModelRouterException);
      expect(error).toMatchObject({ kind: 'transient', provider: 'model-router-service' });
      expect((error as Error).message).toMatch(
        /^The model router service could not be reached for model-router\.chat \(the default router\): (Connection closed|connect ECONNREFUSED 127\.0\.0\.1:\d+)$/,
      );
    }
    expect(second).toMatchObject({ code: 'ECONNREFUSED' });

    await handle.service.open();
    await socketsSettle();
    await expect(remote.chat(ask('after'))).resolves.toMatchObject({
      aiMessage: { text: 'echo: after' },
    });
  });

  it('a call running when it shuts down fails at once, and its model call is aborted', async () => {
    const remote = handle.remote({ router: 'hanging' });
    const call = rejection(remote.chat(ask('long one')));
    await until(() => handle.probe.hangingCalls === 1);

    await handle.service.close();

    const error = await call;
    expect(error).toBeInstanceOf(RemoteModelRouterException);
    expect(error).toMatchObject({ kind: 'transient' });
    expect((error as Error).message).toContain('Connection closed');
    expect(handle.probe.aborts).toHaveLength(1);

    await handle.service.open();
    await expect(handle.remote().chat(ask('back'))).resolves.toMatchObject({
      aiMessage: { text: 'echo: back' },
    });
  });
});

describe('the router service restarted between two calls, over redis', () => {
  const handle = useRouterService('redis');

  it('a call while it is down times out clearly (a broker cannot tell); the same client works once it is back', async () => {
    // the bound leaves room for a round trip through Redis on a busy machine (the calls before
    // and after must answer within it); the call while down waits it out
    const remote = handle.remote({ timeoutMs: 1_500 });
    await expect(remote.chat(ask('before'))).resolves.toMatchObject({
      aiMessage: { text: 'echo: before' },
    });

    await handle.service.close();
    const error = await rejection(remote.chat(ask('while down')));

    expect(error).toBeInstanceOf(ModelTimeoutException);
    expect((error as Error).message).toBe(
      'The model router service did not answer model-router.chat within 1500 ms (the default router); is it running and reachable on this transport?',
    );

    await handle.service.open();
    await expect(remote.chat(ask('after'))).resolves.toMatchObject({
      aiMessage: { text: 'echo: after' },
    });
  });

  it('a call running when it shuts down has its model call aborted', async () => {
    const call = rejection(
      // the service must close before this bound, or the timeout aborts the call first
      handle.remote({ router: 'hanging', timeoutMs: 1_500 }).chat(ask('long one')),
    );
    await until(() => handle.probe.hangingCalls === 1);

    await handle.service.close();

    expect(handle.probe.aborts).toEqual([
      expect.objectContaining({ message: 'The model router service is shutting down' }),
    ]);
    await expect(call).resolves.toBeInstanceOf(ModelTimeoutException);
    await handle.service.open();
  });
});
