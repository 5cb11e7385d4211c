import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { ResyncLoop, type ResyncSteps } from '../../../src/redis/resync-loop.js';

function steps(state: { shared: boolean; syncs: number }): ResyncSteps {
  return {
    canStart: () => true,
    closed: () => false,
    shared: () => state.shared,
    subscribe: async () => undefined,
    synchronise: async () => {
      state.syncs += 1;
    },
    hasLocalChanges: () => false,
    pushLocalChanges: async () => undefined,
    succeeded: () => {
      state.shared = true;
    },
    failed: () => undefined,
    maxDelayMs: 1_000,
  };
}

describe('ResyncLoop', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('drops a scheduled retry once another resync made the store shared', async () => {
    jest.useFakeTimers();
    const state = { shared: false, syncs: 0 };
    const loop = new ResyncLoop(steps(state));
    loop.schedule(); // an error while connecting
    loop.request(); // the connection became ready: this resync succeeds
    await jest.advanceTimersByTimeAsync(0);
    expect(state).toEqual({ shared: true, syncs: 1 });

    // the retry's timer fires while the store shares: a resync now would write back window
    // contributions under the store's live adds
    await jest.advanceTimersByTimeAsync(1_000);
    expect(state.syncs).toBe(1);
    loop.stop();
  });

  it('runs a scheduled retry while the store is still local', async () => {
    jest.useFakeTimers();
    const state = { shared: false, syncs: 0 };
    const loop = new ResyncLoop(steps(state));
    loop.schedule();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(state).toEqual({ shared: true, syncs: 1 });
    loop.stop();
  });

  it('resyncs at once on a reconnect, but keeps the delay after failed resyncs', async () => {
    jest.useFakeTimers();
    const state = { shared: false, syncs: 0 };
    let failing = true;
    const loop = new ResyncLoop({
      ...steps(state),
      synchronise: async () => {
        state.syncs += 1;
        // a node that answers READONLY: the resync fails and the client reconnects
        if (failing) throw new Error('READONLY');
      },
    });
    loop.reconnected();
    await jest.advanceTimersByTimeAsync(0);
    expect(state.syncs).toBe(1); // no failure yet: at once

    // each failure reconnects, and the reconnect waits for the retry's doubling delay
    loop.reconnected();
    await jest.advanceTimersByTimeAsync(0);
    expect(state.syncs).toBe(1);
    await jest.advanceTimersByTimeAsync(100); // 50 * 2 ** 1
    expect(state.syncs).toBe(2);
    loop.reconnected();
    await jest.advanceTimersByTimeAsync(199);
    expect(state.syncs).toBe(2);
    failing = false;
    await jest.advanceTimersByTimeAsync(1);
    expect(state).toEqual({ shared: true, syncs: 3 });

    // once a resync succeeded, a later reconnect resyncs at once again
    state.shared = false;
    loop.reconnected();
    await jest.advanceTimersByTimeAsync(0);
    expect(state.syncs).toBe(4);
    loop.stop();
  });
});
