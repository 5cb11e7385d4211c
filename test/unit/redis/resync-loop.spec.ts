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
});
